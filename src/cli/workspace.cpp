#include "cli/workspace.h"

#include "cli/run_support.h"
#include "core/numbering.h"
#include "evidence/journal_sync.h"
#include "git/repository.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace ej::cli {

namespace {

// ej up to this version kept the journal in <work tree>/.ej, where `git clean -fdx` deletes it.
void move_legacy_journal(const Workspace& workspace)
{
  const auto legacy = workspace.work_tree / ".ej";
  std::error_code ec;
  if (!std::filesystem::exists(store::journal_file(legacy), ec)) {
    return;
  }
  if (std::filesystem::exists(store::journal_file(workspace.ej_dir), ec)) {
    fmt::print(
        stderr,
        "ej: warning: {} holds an older journal; ej uses the one in {}. Remove {} once you have checked "
        "that nothing in it is missing from the new one.\n",
        legacy.string(), workspace.ej_dir.string(), legacy.string());
    return;
  }
  std::filesystem::create_directories(workspace.ej_dir.parent_path(), ec);
  std::filesystem::rename(legacy, workspace.ej_dir, ec);
  if (ec) {
    throw Error(
        "cannot move the journal from {} to {} ({}): move the directory there yourself (mv {} {}), then "
        "run ej again",
        legacy.string(), workspace.ej_dir.string(), ec.message(), legacy.string(), workspace.ej_dir.string());
  }
  fmt::print(stderr,
             "ej: moved the journal from {} to {}, where git clean cannot reach it and linked worktrees "
             "share it\n",
             legacy.string(), workspace.ej_dir.string());
}

} // namespace

Workspace locate_workspace()
{
  const auto cwd = std::filesystem::current_path();
  const auto repository = git::find_repository(cwd);
  if (!repository) {
    throw Error("not inside a git repository ({}); ej keeps its journal in a git repository: cd into your "
                "project, or run 'git init' first",
                cwd.string());
  }
  Workspace workspace{repository->work_tree, repository->common_dir / "ej", repository->git_dir};
  move_legacy_journal(workspace);
  return workspace;
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

bool numbers_from_remote(const Workspace& workspace)
{
  return evidence::journal_is_shared(workspace.ej_dir.parent_path());
}

git::CodeState read_code_state(const Workspace& workspace)
{
  auto state = git::read_code_state({workspace.work_tree, workspace.ej_dir.parent_path(), workspace.git_dir});
  if (!state.untracked_left_out.empty()) {
    const auto shown = std::min<std::size_t>(state.untracked_left_out.size(), 10);
    fmt::print(stderr,
               "ej: warning: {} untracked file(s) are too large to keep with the code state and are recorded "
               "by name only (commit them, or add them to .gitignore): {}{}\n",
               state.untracked_left_out.size(),
               fmt::join(state.untracked_left_out.begin(), state.untracked_left_out.begin() + shown, ", "),
               state.untracked_left_out.size() > shown ? ", ..." : "");
  }
  return state;
}

core::GitContext store_code_state(store::Writer& writer, const git::CodeState& state)
{
  auto context = state.context;
  if (context.dirty && !state.diff_text.empty()) {
    context.diff_blob = writer.put_blob(state.diff_text);
  }
  return context;
}

int parse_attempt_number(std::string_view text)
{
  if (const auto provisional = core::parse_provisional(text)) {
    return *provisional; // @k3f9qx: not yet numbered by the shared remote (core/numbering.h)
  }
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '#') {
    digits.remove_prefix(1);
  }
  int number = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || number <= 0) {
    throw UsageError("'{}' is not an attempt number; use the number 'ej try' printed, e.g. 12, #12 or @k3f9qx", text);
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
