#include "cli/workspace.h"

#include "cli/run_support.h"
#include "git/repository.h"
#include "util/error.h"
#include "util/strings.h"

#include <charconv>

namespace ej::cli {

Workspace locate_workspace()
{
  const auto cwd = std::filesystem::current_path();
  const auto work_tree = git::find_work_tree(cwd);
  if (!work_tree) {
    throw Error("not inside a git repository ({}); ej keeps its journal in a git work tree: cd into your "
                "project, or run 'git init' first",
                cwd.string());
  }
  return {*work_tree, *work_tree / ".ej"};
}

store::Journal open_journal(const Workspace& workspace)
{
  if (!std::filesystem::exists(store::journal_file(workspace.ej_dir))) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  auto journal = store::Journal::open(workspace.ej_dir);
  recover_stale_runs(journal);
  return journal;
}

core::GitContext capture_git_context(store::Writer& writer, const Workspace& workspace)
{
  auto state = git::read_code_state(workspace.work_tree);
  if (state.context.dirty && !state.diff_text.empty()) {
    state.context.diff_blob = writer.put_blob(state.diff_text);
  }
  return state.context;
}

int parse_attempt_number(std::string_view text)
{
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '#') {
    digits.remove_prefix(1);
  }
  int number = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || number <= 0) {
    throw UsageError("'{}' is not an attempt number; use the number 'ej try' printed, e.g. 12 or #12", text);
  }
  return number;
}

std::string checked_text(std::string_view text, std::string_view what, bool allow_empty)
{
  if (!util::is_valid_utf8(text)) {
    throw UsageError("the {} is not valid UTF-8 text; ej stores text as UTF-8: convert it (e.g. with iconv)",
                     what);
  }
  if (!allow_empty && util::trim(text).empty()) {
    throw UsageError("the {} is empty; say what it is", what);
  }
  return std::string(text);
}

} // namespace ej::cli
