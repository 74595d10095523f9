#pragma once

#include "core/records.h"
#include "evidence/reader.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// Reading attempts as `ej log`, `ej search`, `ej show ID` and `ej why` do (and the same tools of
// `ej mcp`): the filters checked against the journal, and the documented JSON (docs/json.md).
namespace ej::evidence {

struct LogQuery {
  std::string plan;       // empty: the current plan (said on stderr), else every plan
  bool all_plans = false; // every plan, the current one too
  std::string status;     // a status name, or empty
  std::string tag;        // a tag some attempt has, or empty
  std::string since;      // YYYY-MM-DD[THH:MM:SS], or empty
  int limit = 0;          // 0: all
};

// The attempts `ej log` lists, newest first; a status, tag or plan that names nothing is an error.
std::vector<core::Attempt> log_attempts(store::Journal& journal, const LogQuery& query);
// `ej search TEXT`: full-text matches, newest first.
std::vector<core::Attempt> search_attempts(store::Journal& journal, const std::string& text, int limit);
// `ej why QUERY`: the attempt a number names, else those of the tag, title and text, each once.
std::vector<core::AttemptHistory> why_matches(store::Journal& journal, const std::string& query, int limit);

// `ej log --json`, `ej search --json`: an array of attempts.
nlohmann::json attempts_json(const std::vector<core::Attempt>& attempts);
// `ej show ID --json`: the attempt's history, runs and verdict; with `diff` its stored diff and the
// code its runs measured.
nlohmann::json attempt_detail_json(Reader& reader, const core::Attempt& attempt, bool diff);
// `ej why QUERY --json`: each history with its verdict.
nlohmann::json why_json(Reader& reader, const std::vector<core::AttemptHistory>& histories);

} // namespace ej::evidence
