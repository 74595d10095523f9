#pragma once

#include "git/repository.h"
#include "git/restore.h"
#include "measuring/detach.h"
#include "measuring/interleaved_run.h"
#include "measuring/run_observer.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <functional>
#include <string>

// The work tree measured against a reference code state, as `ej run --against` and `ej ci` do it, or
// one recorded code state against another, as `ej bisect` measures a commit against GOOD: each code
// state restored into a temporary linked worktree (measuring/rerun_worktree.h), both sides measured
// interleaved (measuring/interleaved_run.h), the worktrees removed however it ends.
namespace ej::measuring {

struct ReferenceCode {
  std::string name;          // as messages say it: "run #5", "main (1a2b3c4d5e6f)"
  git::CodeToRestore code;   // the commit, and the diff and files a run or attempt recorded
  git::ContentOf content_of; // the bytes of code.large_files; empty when there are none
};

// Reads a work tree's code state (cli's read_code_state: its limits, its warnings).
using CodeReader = std::function<git::CodeState(const Workspace&)>;

// Measures the work tree of `workspace` (request.candidate) against `reference`. The caller holds a
// run::InterruptGuard: a signal ends both runs, and an interruption while the reference is restored
// throws. request.reference is made from request.candidate here, with `reference_attempt`. A
// detached ej (`ej run --detach`) tells its starter the command line is accepted before the
// reference is restored and built, which takes seconds.
InterleavedResult measure_against(store::Journal& journal, const Workspace& workspace,
                                  const ReferenceCode& reference, std::optional<int> reference_attempt,
                                  InterleavedRequest request, RunObserver& observer,
                                  const CodeReader& read_code, bool numbers_from_remote,
                                  DetachedReport& detached);

// Measures `candidate` against `reference`, both restored from their (different) code states into
// worktrees of their own: the work tree of `workspace` is not measured. As measure_against
// otherwise; request.candidate_name is set to candidate.name here.
InterleavedResult measure_restored(store::Journal& journal, const Workspace& workspace,
                                   const ReferenceCode& candidate, const ReferenceCode& reference,
                                   std::optional<int> reference_attempt, InterleavedRequest request,
                                   RunObserver& observer, const CodeReader& read_code,
                                   bool numbers_from_remote, DetachedReport& detached);

} // namespace ej::measuring
