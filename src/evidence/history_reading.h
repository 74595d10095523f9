#pragma once

#include "evidence/history.h"
#include "evidence/reader.h"
#include "measuring/workspace.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// Reading a history's inputs from the journal and git, and the regressions of every benchmark.
namespace ej::evidence {

// `revision` (a branch, tag or commit; empty: HEAD) and its first parents, oldest first; the line
// last read is kept in the journal's directory, so that only new commits are read from git.
std::vector<LineCommit> read_line(const measuring::Workspace& workspace, const std::string& revision);

// What build_histories needs for one benchmark along `line`: its usable runs of `revision` (0: the
// revision of its newest usable run) with their series of `metric` (empty: the revision's primary
// metric), its rules and its acknowledgements. nullopt when the benchmark has no usable run of it.
// The samples are read in one statement, not run by run: a history of 10,000 commits reads them
// all.
std::optional<HistoryInput> read_history_input(Reader& reader, const std::string& bench, int revision,
                                               const std::string& metric, std::span<const LineCommit> line);

// A step that went the wrong way, beyond the minimum effect, and is not acknowledged.
struct Regression {
  std::string bench;
  int revision = 0;
  std::string metric;
  std::string params;
  std::string key;
  std::string unit;
  std::size_t good_position = 0; // in the line
  std::size_t bad_position = 0;
  std::string subject; // of the bad commit
  HistoryStep step;
};

// The regressions of the benchmarks along the line, each benchmark on its primary metric, every
// combination; only those whose first commit measured after the step comes after `since` (a line
// position) when given. Newest first: by the bad commit's position, then benchmark, combination.
std::vector<Regression> find_regressions(Reader& reader, const std::vector<std::string>& benches,
                                         std::span<const LineCommit> line, std::optional<std::size_t> since,
                                         const measure::ChangePointOptions& detection = {});

} // namespace ej::evidence
