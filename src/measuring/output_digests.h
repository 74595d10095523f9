#pragma once

#include "core/bench_definition.h"
#include "run/process.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>

// `--same-output stdout|@FILE` (docs/benchmarks.md, "Checks"): the SHA-256 of what each measured
// repeat printed or wrote, by combination, kept with the run (outputs.same_output) so that a
// verdict can hold the candidate's output against the reference's.
namespace ej::measuring {

class OutputDigests {
public:
  explicit OutputDigests(core::SameOutput same) : m_same(std::move(same)) {}

  // Whether the benchmark asks for digests (a metric's value is compared from its samples).
  bool active() const;
  // After a measured repeat of the combination `params` (core::describe), run in `cwd` as this
  // machine sees it. A file the repeat did not write has the digest "missing".
  void add(const std::string& params, const run::ProcessResult& result, const std::filesystem::path& cwd);
  // {"kind", "name", "digests": {params: hex}, "varies": [params whose repeats disagreed]}.
  nlohmann::json to_json() const;

private:
  core::SameOutput m_same;
  std::map<std::string, std::string> m_digests;
  std::map<std::string, bool> m_varies;
};

// The digests of two blocks of one run (ej run --against measures a run in blocks) as one.
nlohmann::json merged_digests(const nlohmann::json& earlier, const nlohmann::json& later);

} // namespace ej::measuring
