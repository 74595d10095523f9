#pragma once

#include "core/records.h"
#include "render/template_data.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// The story of a plan in words: its decisions in order, and the chains that link them ("#3 CUDA
// 12.8 -> 13.0 upgrade unblocked #4 (retried as #11, adopted) and #7 (retried as #12, rejected)").
namespace ej::evidence::document {

class Story {
public:
  // Every attempt of the plan, oldest first, with its history.
  void add(const core::AttemptHistory& history);

  // `decisions`: one entry per status change, oldest first (date, number, title, from, to, reason,
  // has_reason); `chains`: one sentence each (text); and the has_ flags.
  void write(render::TemplateData& data) const;

  // The chains, one sentence each, markdown-escaped.
  std::vector<std::string> chains() const;

private:
  struct Decision {
    std::int64_t time_ms;
    int number;
    std::string from, to, reason;
  };
  struct Known {
    std::string title;
    core::Status status;
  };
  std::vector<Decision> m_decisions;
  std::map<int, Known> m_attempts;
  std::vector<core::Link> m_links; // every link out of the plan's attempts
};

} // namespace ej::evidence::document
