#include "remote/code_shipping.h"

#include "util/error.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ej::remote {

namespace {

using util::shell_quote;

// Runs a local pipeline whose last command is ssh into the host; throws with what failed.
void pipe_into_host(const SshConnection& connection, const std::string& producer,
                    const std::string& remote_command, std::string_view doing)
{
  run::ProcessSpec spec;
  spec.shell = producer + " | " + util::shell_join(connection.argv(remote_command));
  spec.timeout_s = 0;
  const auto result = run::run_process(spec);
  if (result.succeeded()) {
    return;
  }
  const auto said = util::join(util::lines(result.err.text()), "; ");
  if (auto full = disk_full_error(doing, connection.destination(), said)) {
    throw *full;
  }
  if (result.ending == run::Ending::Exited && result.exit_code == 255) {
    throw Error("{}", connection.describe_failure(result, doing));
  }
  throw Error("cannot {} on {}: {}", doing, connection.destination(),
              said.empty() ? run::describe(result) : util::first_line(said, 300));
}

// The end of a shipment's command line: should any step fail (a full disk most often), the partial
// copy goes at once, with the failure's status. Left there, it would hold the space every later
// shipment needs, of any commit, and they would fail too.
std::string removed_on_failure(const std::string& temporary)
{
  return fmt::format(" || {{ failed=$?; rm -rf {}; exit $failed; }}", temporary);
}

// A list of paths for `tar -T`, NUL-separated, in a temporary file removed with this object.
class PathList {
public:
  explicit PathList(const std::vector<std::string>& paths)
  {
    char name[] = "/tmp/ej-paths-XXXXXX";
    const int fd = ::mkostemp(name, O_CLOEXEC);
    if (fd < 0) {
      throw Error("cannot create a temporary file in /tmp: {}", std::strerror(errno));
    }
    m_path = name;
    std::string content;
    for (const auto& path : paths) {
      content += path;
      content += '\0';
    }
    const bool written = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
    ::close(fd);
    if (!written) {
      throw Error("cannot write a temporary file in /tmp: {}", std::strerror(errno));
    }
  }
  ~PathList() { ::unlink(m_path.c_str()); }
  PathList(const PathList&) = delete;
  PathList& operator=(const PathList&) = delete;
  const std::string& path() const { return m_path; }

private:
  std::string m_path;
};

} // namespace

ShippedCode ship_code(const SshConnection& connection, const CodeToShip& code, const std::string& repo_dir)
{
  if (code.commit.empty()) {
    throw Error(
        "the repository has no commit yet, and a remote run ships HEAD and the changes to it: commit once, "
        "then run again");
  }
  ShippedCode shipped;
  const auto commit_dir = repo_dir + "/" + code.commit;
  const auto state_dir = code.state.empty() ? std::string() : commit_dir + "-" + code.state.substr(0, 16);
  shipped.work_dir = state_dir.empty() ? commit_dir : state_dir;

  // A directory is complete once its marker exists: a shipment cut short is never taken for one.
  const auto have =
      connection.check(fmt::format("[ -f {0}.complete ] && echo commit; {1}", shell_quote(commit_dir),
                                   state_dir.empty() ? std::string(":")
                                                     : fmt::format("[ -f {}.complete ] && echo state; :",
                                                                   shell_quote(state_dir))),
                       "look for the code already shipped");
  const bool have_commit = have.find("commit") != std::string::npos;
  const bool have_state = have.find("state") != std::string::npos;

  if (!have_commit) {
    const auto temporary = shell_quote(commit_dir + ".tmp");
    pipe_into_host(
        connection,
        fmt::format("git -C {} archive --format=tar {}", shell_quote(code.work_tree.string()),
                    shell_quote(code.commit)),
        fmt::format("rm -rf {0} && mkdir -p {0} && tar -xf - -C {0} && rm -rf {1} && mv {0} {1} && : > "
                    "{1}.complete{2}",
                    temporary, shell_quote(commit_dir), removed_on_failure(temporary)),
        "ship commit " + code.commit.substr(0, 10));
    shipped.commit_shipped = true;
  }
  if (!state_dir.empty() && !have_state) {
    const PathList list(code.changed_files);
    std::string removals;
    for (const auto& path : code.deleted_files) {
      removals += " && rm -f " + shell_quote(state_dir + ".tmp/" + path);
    }
    const auto temporary = shell_quote(state_dir + ".tmp");
    pipe_into_host(
        connection,
        fmt::format("tar -cf - -C {} --null --verbatim-files-from -T {}",
                    shell_quote(code.work_tree.string()), shell_quote(list.path())),
        fmt::format("rm -rf {0} && cp -R -p {1} {0} && tar -xf - -C {0}{2} && rm -rf {3} && mv {0} {3} && "
                    ": > {3}.complete{4}",
                    temporary, shell_quote(commit_dir), removals, shell_quote(state_dir),
                    removed_on_failure(temporary)),
        "ship the uncommitted changes");
    shipped.state_shipped = true;
  }
  return shipped;
}

} // namespace ej::remote
