#include "measuring/rerun_worktree.h"

#include "measuring/run_target.h"
#include "run/owner.h"
#include "run/process.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>
#include <unistd.h>
#include <vector>

namespace ej::measuring {

namespace {

// git, quietly, in the work tree; what it said, and whether it succeeded.
bool worktree_git(const std::vector<std::string>& args, const std::filesystem::path& cwd, std::string& said)
{
  run::ProcessSpec spec;
  spec.argv = {"git"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = cwd;
  const auto result = run::run_process(spec);
  said = util::trim(result.err.head + result.out.head);
  return result.succeeded();
}

// What `git worktree remove --force` does, without running git: a rerun interrupted by a signal
// runs no more child processes (run::InterruptGuard), and its worktree must still go. The
// directory, then the repository's record of it (.git/worktrees/NAME, whose gitdir names it).
void remove_worktree(const std::filesystem::path& common_dir, const std::filesystem::path& dir)
{
  std::error_code ec;
  const auto dot_git = std::filesystem::weakly_canonical(dir / ".git", ec);
  std::vector<std::filesystem::path> records;
  for (const auto& entry : std::filesystem::directory_iterator(common_dir / "worktrees", ec)) {
    const auto text = util::read_file(entry.path() / "gitdir").value_or("");
    const std::filesystem::path gitdir(util::trim(text));
    if (!gitdir.empty() && std::filesystem::weakly_canonical(gitdir, ec) == dot_git) {
      records.push_back(entry.path());
    }
  }
  std::filesystem::remove_all(dir, ec);
  for (const auto& record : records) {
    std::filesystem::remove_all(record, ec);
  }
}

} // namespace

namespace {

// The names of this ej's worktrees that are in use.
std::set<std::string>& live_worktrees()
{
  static std::set<std::string> names;
  return names;
}

} // namespace

RerunWorktree::RerunWorktree(const Workspace& workspace, const std::string& commit)
    : m_work_tree(workspace.work_tree), m_common_dir(workspace.ej_dir.parent_path()),
      m_ej_dir(workspace.ej_dir)
{
  // Two code states of one commit at once (an attempt's diff against its baseline's) each get their
  // own; one made after another has gone takes its path again.
  auto base = fmt::format("{}-{}", commit.substr(0, 12), ::getpid());
  for (int n = 2; live_worktrees().count(base) > 0; ++n) {
    base = fmt::format("{}-{}-{}", commit.substr(0, 12), ::getpid(), n);
  }
  live_worktrees().insert(base);
  m_name = base;
  m_dir = workspace.ej_dir / "rerun" / base;
  m_note = workspace.ej_dir / "rerun" / (base + ".owner");
  std::filesystem::create_directories(m_dir.parent_path());
  // The note first: an ej killed at any point after leaves something the next one can clean.
  const nlohmann::json owner = {{"pid", ::getpid()},
                                {"start_ticks", run::process_start_ticks(::getpid()).value_or(0)},
                                {"boot_id", run::boot_id()},
                                {"worktree", m_dir.string()}};
  util::write_file_atomic(m_note, owner.dump() + "\n");
  forget_local_builds(workspace.ej_dir, m_dir); // of an earlier worktree at this path: gone with it
  std::string said;
  if (!worktree_git({"worktree", "add", "--detach", "--no-checkout", m_dir.string(), commit}, m_work_tree,
                    said)) {
    std::error_code ec;
    std::filesystem::remove(m_note, ec);
    live_worktrees().erase(m_name);
    throw Error("cannot check out commit {} for the rerun ({}); is it still in the repository? (git fetch)",
                commit.substr(0, 12), said);
  }
}

RerunWorktree::~RerunWorktree()
{
  live_worktrees().erase(m_name);
  std::error_code ec;
  if (!m_keep) {
    remove_worktree(m_common_dir, m_dir);
    forget_local_builds(m_ej_dir, m_dir);
  }
  std::filesystem::remove(m_note, ec);
}

void RerunWorktree::files_written()
{
  std::string said;
  if (!worktree_git({"reset", "-q"}, m_dir, said)) {
    throw Error("cannot set the index of the rerun's worktree {} ({})", m_dir.string(), said);
  }
}

void RerunWorktree::keep()
{
  m_keep = true;
}

void remove_abandoned_worktrees(const Workspace& workspace,
                                const std::function<void(std::string_view)>& message)
{
  const auto dir = workspace.ej_dir / "rerun";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".owner") {
      continue;
    }
    const auto note = nlohmann::json::parse(util::read_file(entry.path()).value_or(""), nullptr, false);
    if (!note.is_object()) {
      continue;
    }
    const auto ticks = note.value("start_ticks", std::uint64_t{0});
    if (run::owner_state(note.value("pid", 0), ticks == 0 ? std::nullopt : std::optional(ticks),
                         note.value("boot_id", "")) == run::OwnerState::Running) {
      continue;
    }
    auto worktree = entry.path();
    worktree.replace_extension();
    message(fmt::format("ej: removing the worktree {} of an ej rerun that did not end (pid {})",
                        worktree.string(), note.value("pid", 0)));
    remove_worktree(workspace.ej_dir.parent_path(), worktree);
    std::filesystem::remove(entry.path(), ec);
  }
}

} // namespace ej::measuring
