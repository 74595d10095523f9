#pragma once

#include "core/git_context.h"
#include "core/run_records.h"

#include <string>
#include <vector>

// The code an attempt's runs measured, against the code the attempt recorded (ej show ATTEMPT
// --diff): a run made after a fix was committed, or on a work tree patched since, measured other
// code than the attempt's diff shows.
namespace ej::evidence {

struct CodeGroup {
  core::GitContext git;         // the code these runs measured
  std::vector<int> runs;        // ascending
  bool same_as_attempt = false; // the attempt's commit, and its diff (or none) exactly
};

// The runs by the code they measured (commit, dirty flag, stored diff): the attempt's own code
// first, then in the order of their first run. Imported runs, which recorded no code, are left out.
std::vector<CodeGroup> code_of_runs(const core::GitContext& attempt,
                                    const std::vector<core::RunRecord>& runs);

// "run #5, #7" ("runs" for several).
std::string runs_label(const std::vector<int>& runs);

} // namespace ej::evidence
