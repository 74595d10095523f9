#include "measuring/interleaved_against.h"

#include "measuring/rerun_worktree.h"
#include "run/signals.h"
#include "util/error.h"

#include <fmt/format.h>

#include <memory>

namespace ej::measuring {

namespace {

// A code state written into a worktree of its own, and the workspace a run of it measures in.
class RestoredCode {
public:
  RestoredCode(const Workspace& workspace, const ReferenceCode& code, RunObserver& observer)
      : m_worktree(workspace, code.code.commit)
  {
    const auto no_content = [](const core::LargeUntracked&) -> std::optional<std::string> {
      return std::nullopt;
    };
    const auto restored = git::restore_code_state(
        workspace.git_dir, code.code, code.content_of ? code.content_of : no_content, m_worktree.dir());
    if (run::InterruptGuard::interrupted()) {
      throw Error("interrupted while the code state of {} was restored; nothing was measured", code.name);
    }
    m_worktree.files_written();
    if (restored.submodules_skipped) {
      observer.message(fmt::format(
          "ej: note: the changes inside submodules that {} recorded are not restored", code.name));
    }
    const auto repository = git::find_repository(m_worktree.dir());
    if (!repository) {
      throw Error("the worktree {} made for {} is not a git work tree", m_worktree.dir().string(), code.name);
    }
    m_workspace = {repository->work_tree, workspace.ej_dir, repository->git_dir};
    observer.message(fmt::format("ej: {} restored in {}", code.name, m_worktree.dir().string()));
  }

  const Workspace& workspace() const { return m_workspace; }

private:
  RerunWorktree m_worktree;
  Workspace m_workspace;
};

InterleavedResult measure(store::Journal& journal, const Workspace& candidate, const Workspace& reference,
                          InterleavedRequest request, RunObserver& observer, const CodeReader& read_code,
                          bool numbers_from_remote, DetachedReport& detached)
{
  InterleavedSession session(journal, candidate, reference, std::move(request), observer);
  const auto candidate_code = read_code(candidate); // outside the write lock
  const auto reference_code = read_code(reference);
  return session.run(candidate_code, reference_code, numbers_from_remote, detached);
}

} // namespace

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
  const RestoredCode restored(workspace, reference, observer);
  return measure(journal, workspace, restored.workspace(), std::move(request), observer, read_code,
                 numbers_from_remote, detached);
}

InterleavedResult measure_restored(store::Journal& journal, const Workspace& workspace,
                                   const ReferenceCode& candidate, const ReferenceCode& reference,
                                   std::optional<int> reference_attempt, InterleavedRequest request,
                                   RunObserver& observer, const CodeReader& read_code,
                                   bool numbers_from_remote, DetachedReport& detached)
{
  if (candidate.code.commit == reference.code.commit && candidate.code.patch == reference.code.patch) {
    throw Error("{} and {} are the same code state ({}{}): there is nothing to compare", candidate.name,
                reference.name, candidate.code.commit.substr(0, 12),
                candidate.code.patch.empty() ? "" : " with the same changes");
  }
  detached.accepted(workspace, request.candidate.run_id);
  request.reference = request.candidate;
  request.reference.attempt = reference_attempt;
  request.reference.run_id.clear();
  request.candidate_name = candidate.name;
  const RestoredCode restored_candidate(workspace, candidate, observer);
  const RestoredCode restored_reference(workspace, reference, observer);
  return measure(journal, restored_candidate.workspace(), restored_reference.workspace(), std::move(request),
                 observer, read_code, numbers_from_remote, detached);
}

} // namespace ej::measuring
