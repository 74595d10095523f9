#include "cli/workspace.h"

#include "core/numbering.h"
#include "evidence/journal_sync.h"
#include "git/repository.h"
#include "measuring/rerun_worktree.h"
#include "measuring/stale_runs.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace ej::cli {

namespace {

// ej up to this version kept the journal in <work tree>/.ej, where `git clean -fdx` deletes it.
void move_legacy_journal(const measuring::Workspace& workspace)
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

measuring::Workspace locate_workspace()
{
  const auto cwd = std::filesystem::current_path();
  const auto repository = git::find_repository(cwd);
  if (!repository) {
    throw Error("not inside a git repository ({}); ej keeps its journal in a git repository: cd into your "
                "project, or run 'git init' first",
                cwd.string());
  }
  measuring::Workspace workspace{repository->work_tree, repository->common_dir / "ej", repository->git_dir};
  move_legacy_journal(workspace);
  return workspace;
}

store::Journal open_journal(const measuring::Workspace& workspace)
{
  if (!std::filesystem::exists(store::journal_file(workspace.ej_dir))) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  auto journal = store::Journal::open(workspace.ej_dir);
  measuring::recover_stale_runs(journal);
  measuring::remove_abandoned_worktrees(workspace,
                                        [](std::string_view line) { fmt::print(stderr, "{}\n", line); });
  return journal;
}

bool numbers_from_remote(const measuring::Workspace& workspace)
{
  return evidence::journal_is_shared(workspace.ej_dir.parent_path());
}

git::CodeState read_code_state(const measuring::Workspace& workspace, std::uint64_t keep_untracked_up_to)
{
  git::UntrackedLimits limits;
  limits.keep_up_to_bytes = keep_untracked_up_to;
  auto state =
      git::read_code_state({workspace.work_tree, workspace.ej_dir.parent_path(), workspace.git_dir}, limits);
  std::vector<core::LargeUntracked> left_out; // the files kept as blobs are stored later, in the write
  for (const auto& file : state.context.large_untracked) {
    if (std::find(state.keep_as_blobs.begin(), state.keep_as_blobs.end(), file.path) ==
        state.keep_as_blobs.end()) {
      left_out.push_back(file);
    }
  }
  if (!left_out.empty()) {
    fmt::print(stderr,
               "ej: warning: {} untracked file(s) are too large to keep with the code state and are recorded "
               "by size and hash only: {}. 'ej checkout' and 'ej rerun' of this state will refuse without "
               "--allow-incomplete. Commit them, add them to .gitignore, or keep them with "
               "--keep-untracked-up-to SIZE\n",
               left_out.size(), core::describe_files(left_out, 10));
  }
  return state;
}

std::uint64_t parse_keep_untracked(const std::string& text)
{
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::uint64_t factor = 0;
  if (unit.empty() || unit == "B") {
    factor = 1;
  } else if (unit == "K" || unit == "KiB" || unit == "k") {
    factor = 1024;
  } else if (unit == "M" || unit == "MiB") {
    factor = 1024 * 1024;
  } else if (unit == "G" || unit == "GiB") {
    factor = 1024 * 1024 * 1024;
  }
  constexpr std::uint64_t k_most = 512ull * 1024 * 1024; // a blob is one SQLite value, at most 1 GB
  if (ec != std::errc() || end == text.data() || factor == 0 || value > k_most / factor) {
    throw UsageError("--keep-untracked-up-to takes a size up to 512M, e.g. 200M, 64K or 1048576; not '{}'",
                     text);
  }
  return value * factor;
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
