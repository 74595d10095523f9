#include "store/git_columns.h"

namespace ej::store {

core::GitContext read_git_columns(const Statement& row, int first)
{
  core::GitContext git;
  git.commit = row.text(first);
  git.branch = row.text(first + 1);
  git.dirty = row.integer(first + 2) != 0;
  git.diff_blob = row.text(first + 3);
  return git;
}

} // namespace ej::store
