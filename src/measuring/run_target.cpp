#include "measuring/run_target.h"

#include "run/build_step.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <vector>

namespace ej::measuring {

std::string code_state_id(const git::CodeState& code)
{
  return util::sha256_hex(code.context.commit + "\n" + code.diff_text);
}

namespace {

// The repository's name on a host: its main work tree's, so that a linked worktree (ej's own, where
// the reference of --against is restored, included) ships into the same place and a code state
// that is there already is not shipped again.
std::string repository_name(const Workspace& workspace)
{
  const auto common = workspace.ej_dir.lexically_normal().parent_path();
  if (common.filename() == ".git" && !common.parent_path().filename().empty()) {
    return common.parent_path().filename().string();
  }
  return workspace.work_tree.filename().string();
}

} // namespace

RunTarget::RunTarget(const Workspace& workspace, const std::string& on, const git::CodeState& code,
                     RunObserver& observer)
    : m_work_tree(workspace.work_tree), m_ej_dir(workspace.ej_dir)
{
  if (on.empty() || on == "local") {
    return;
  }
  const auto entry = remote::resolve_host(workspace.ej_dir / "hosts.json", on);
  m_session = std::make_unique<remote::SshSession>(entry);
  remote::CodeToShip ship;
  ship.work_tree = workspace.work_tree;
  ship.commit = code.context.commit;
  ship.state = code.context.dirty ? code_state_id(code) : std::string();
  ship.changed_files = code.changed_files;
  ship.deleted_files = code.deleted_files;
  const auto shipped = m_session->ship(ship, repository_name(workspace));
  m_work_tree = shipped.work_dir;
  observer.message(fmt::format("ej: on {} ({}): code in {}{}", entry.name, m_session->hostname(),
                               shipped.work_dir,
                               shipped.commit_shipped || shipped.state_shipped ? "" : " (already there)"));
  m_on = {{"name", entry.name},
          {"target", entry.target},
          {"hostname", m_session->hostname()},
          {"work_dir", shipped.work_dir}};
}

run::Host& RunTarget::host()
{
  if (m_session) {
    return m_session->host();
  }
  return m_local;
}

run::SlurmCommandVia RunTarget::command_via() const
{
  if (!m_session) {
    return {};
  }
  const auto* session = m_session.get();
  return [session](const std::vector<std::string>& argv) { return session->command_argv(argv); };
}

run::EnvSnapshot RunTarget::snapshot(const run::EnvOptions& options) const
{
  if (m_session) {
    return m_session->snapshot(options, m_work_tree.string());
  }
  return run::capture_environment(options);
}

std::filesystem::path RunTarget::build_marker(const std::string& bench) const
{
  if (m_session) {
    // Beside the work directory, which is one code state's: never inside what was shipped.
    return m_work_tree.string() + ".build-" + bench;
  }
  return local_build_marker(m_ej_dir, m_work_tree, bench);
}

namespace {

std::string work_tree_suffix(const std::filesystem::path& work_tree)
{
  return "-" + util::sha256_hex(work_tree.string()).substr(0, 12);
}

} // namespace

std::filesystem::path local_build_marker(const std::filesystem::path& ej_dir,
                                         const std::filesystem::path& work_tree, const std::string& bench)
{
  return ej_dir / "builds" / (bench + work_tree_suffix(work_tree));
}

void forget_local_builds(const std::filesystem::path& ej_dir, const std::filesystem::path& work_tree)
{
  // Called from a destructor: nothing here throws but for memory.
  const auto suffix = work_tree_suffix(work_tree);
  std::error_code ec;
  std::vector<std::filesystem::path> markers;
  for (std::filesystem::directory_iterator it(ej_dir / "builds", ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().filename().string().ends_with(suffix)) {
      markers.push_back(it->path());
    }
  }
  for (const auto& marker : markers) {
    std::filesystem::remove(marker, ec);
  }
}

BuildReport run_build_step(RunTarget& target, const RunPlan& plan, const std::string& bench,
                           const std::string& state, bool no_build)
{
  BuildReport report;
  const auto& command = plan.definition.build;
  if (command.empty()) {
    return report;
  }
  report.record["command"] = command;
  if (no_build) {
    report.record["state"] = "skipped";
    return report;
  }
  run::BuildRequest request;
  request.command = command;
  request.cwd = plan.work_tree / plan.definition.cwd;
  request.env = plan.definition.env;
  request.env.insert(request.env.end(), plan.extra_env.begin(), plan.extra_env.end());
  request.state = state;
  request.marker = target.build_marker(bench);
  request.echo = plan.repeats.echo_build;
  const auto outcome = run::run_build(target.host(), request);
  report.ran = outcome.state != run::BuildState::Reused;
  report.record["state"] = std::string(run::build_state_name(outcome.state));
  report.record["wall_s"] = outcome.wall_s;
  report.log = outcome.log;
  if (outcome.state == run::BuildState::Reused) {
    plan.observer->message("ej: build reused: the code state is the one built last time");
  }
  if (outcome.state == run::BuildState::Failed) {
    report.failed = true;
    const auto all = util::lines(outcome.log);
    const std::size_t keep = std::min<std::size_t>(all.size(), 20);
    const std::vector<std::string> tail(all.end() - static_cast<std::ptrdiff_t>(keep), all.end());
    report.reason = fmt::format("the build step {}: {}{}", outcome.failure, command,
                                tail.empty() ? "" : "\n" + util::join(tail, "\n"));
  }
  return report;
}

} // namespace ej::measuring
