#include "measuring/interleaved_against.h"

#include "measuring/rerun_worktree.h"
#include "run/signals.h"
#include "util/error.h"

#include <fmt/format.h>

namespace ej::measuring {

InterleavedResult measure_against(store::Journal& journal, const Workspace& workspace,
                                  const ReferenceCode& reference, std::optional<int> reference_attempt,
                                  InterleavedRequest request, RunObserver& observer,
                                  const CodeReader& read_code, bool numbers_from_remote,
                                  DetachedReport& detached)
{
  detached.accepted(workspace, request.candidate.run_id);
  request.reference = request.candidate;
  request.reference.attempt = reference_attempt;
  request.reference.run_id.clear();

  RerunWorktree worktree(workspace, reference.code.commit);
  const auto no_content = [](const core::LargeUntracked&) -> std::optional<std::string> {
    return std::nullopt;
  };
  const auto restored =
      git::restore_code_state(workspace.git_dir, reference.code,
                              reference.content_of ? reference.content_of : no_content, worktree.dir());
  if (run::InterruptGuard::interrupted()) {
    throw Error("interrupted while the reference's code state was restored; nothing was measured");
  }
  worktree.files_written();
  if (restored.submodules_skipped) {
    observer.message(fmt::format("ej: note: the changes inside submodules that {} recorded are not restored",
                                 reference.name));
  }
  const auto repository = git::find_repository(worktree.dir());
  if (!repository) {
    throw Error("the worktree {} made for {} is not a git work tree", worktree.dir().string(),
                reference.name);
  }
  const Workspace reference_workspace{repository->work_tree, workspace.ej_dir, repository->git_dir};
  observer.message(fmt::format("ej: {} restored in {}", reference.name, worktree.dir().string()));

  InterleavedSession session(journal, workspace, reference_workspace, std::move(request), observer);
  const auto candidate_code = read_code(workspace); // outside the write lock
  const auto reference_code = read_code(reference_workspace);
  return session.run(candidate_code, reference_code, numbers_from_remote, detached);
}

} // namespace ej::measuring
