#pragma once

#include "measuring/workspace.h"

#include <functional>
#include <string_view>

#include <filesystem>
#include <string>

// The linked worktrees ej rerun measures in: ej/rerun/<commit>-<pid> (then <commit>-<pid>-2, -3
// for more in one ej), each with a note beside it (<commit>-<pid>.owner) saying which ej uses it. A worktree
// goes when its rerun ends, whatever ended it short of SIGKILL; one whose ej is gone (killed, a crash, power
// lost) is removed by the next ej that opens the journal.
namespace ej::measuring {

class RerunWorktree {
public:
  // A worktree of the repository at `commit` (detached), with no files yet: the code state is
  // written into it by the caller (git::restore_code_state), then the index is set to the commit.
  RerunWorktree(const Workspace& workspace, const std::string& commit);
  ~RerunWorktree();
  RerunWorktree(const RerunWorktree&) = delete;
  RerunWorktree& operator=(const RerunWorktree&) = delete;

  const std::filesystem::path& dir() const { return m_dir; }
  // The files are written: the index takes the commit's tree, so that git (and ej run in it) sees
  // the restored changes as changes.
  void files_written();
  // Left in place when the rerun ends (--keep), and never collected: the user removes it.
  void keep();

private:
  std::filesystem::path m_work_tree;
  std::filesystem::path m_common_dir; // the repository's .git
  std::filesystem::path m_ej_dir;
  std::filesystem::path m_dir;
  std::filesystem::path m_note;
  std::string m_name; // <commit>-<pid>[-n]
  bool m_keep = false;
};

// Removes the rerun worktrees whose ej is gone, telling `message` of each before it goes.
void remove_abandoned_worktrees(const Workspace& workspace,
                                const std::function<void(std::string_view)>& message);

} // namespace ej::measuring
