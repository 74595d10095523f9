#pragma once

#include "evidence/interleaved_verdict.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// What `ej ci` found: each benchmark marked for CI measured interleaved against the reference
// commit, the gate's outcome, and the summary a pull request shows (markdown, or JSON with the
// same content). Deterministic: the same verdicts give the same bytes.
namespace ej::evidence {

struct CiSide {
  std::string commit; // full id
  std::string
      name; // what it is, for the reader: "HEAD (branch feature)", "merge base of HEAD and origin/main"
  bool dirty = false; // the candidate's work tree had changes
};

struct CiBench {
  std::string bench;
  std::optional<InterleavedVerdict> verdict; // nullopt when no round was measured
  std::string failure;                       // why a side failed; empty when both finished
  core::SessionStop stopped = core::SessionStop::Rounds;
  int max_rounds = 0;
};

enum class CiOutcome {
  Passed,    // no decisive regression (some may be inconclusive: a warning says so)
  Regressed, // a primary metric regressed decisively beyond its benchmark's minimum effect
  Failed,    // a benchmark could not be measured (a build, a repeat, the extraction failed)
};

// Where the job runs, from GitHub Actions' variables (read by the command, never here): with a
// server and a repository the summary links the commits and their comparison, with a run id the
// run's page too. Empty: no links, the summary as anywhere else.
struct CiLinks {
  std::string server_url; // $GITHUB_SERVER_URL: "https://github.com"
  std::string repository; // $GITHUB_REPOSITORY: "owner/name"
  std::string run_id;     // $GITHUB_RUN_ID
};

struct CiSummary {
  CiSide candidate;
  CiSide reference;
  std::vector<CiBench> benches; // in the order they ran
  CiLinks links;
};

// Regressed wins over Failed: a regression measured is the news, a failure is said with it.
CiOutcome ci_outcome(const CiSummary& summary);
const char* to_string(CiOutcome outcome);
// The benchmarks whose primary metric regressed decisively.
std::vector<std::string> regressed_benches(const CiSummary& summary);
// What a reader should not miss: inconclusive series, stops by the budget, failures, a dirty tree.
std::vector<std::string> ci_warnings(const CiSummary& summary);
// The commands that measure each benchmark again, as ej ci did.
std::vector<std::string> reproduce_commands(const CiSummary& summary);

// For a pull-request comment or $GITHUB_STEP_SUMMARY: a heading, both sides, one table row per
// benchmark x metric x combination (x key), the warnings, and how to reproduce.
std::string ci_markdown(const CiSummary& summary);
nlohmann::json to_json(const CiSummary& summary);

} // namespace ej::evidence
