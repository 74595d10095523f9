#include "remote/ssh_connection.h"

#include "util/error.h"
#include "util/strings.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ej::remote {

namespace {

// The last lines ssh printed, without its warnings about known hosts, for a message.
std::string ssh_said(const run::ProcessResult& result)
{
  std::vector<std::string> kept;
  for (const auto& line : util::lines(result.err.text())) {
    if (line.empty() || util::contains_ci(line, "Permanently added") ||
        util::contains_ci(line, "to the list of known hosts")) {
      continue;
    }
    kept.push_back(std::string(util::trim(line)));
  }
  if (kept.size() > 3) {
    kept.erase(kept.begin(), kept.end() - 3);
  }
  return kept.empty() ? run::describe(result) : util::join(kept, "; ");
}

// stdin of a child from text: an unlinked temporary file, read from its start.
util::UniqueFd input_file(std::string_view input)
{
  char name[] = "/tmp/ej-input-XXXXXX";
  util::UniqueFd fd(::mkostemp(name, O_CLOEXEC));
  if (!fd) {
    throw Error("cannot create a temporary file in /tmp: {}", std::strerror(errno));
  }
  ::unlink(name);
  std::size_t done = 0;
  while (done < input.size()) {
    const auto n = ::write(fd.get(), input.data() + done, input.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      throw Error("cannot write a temporary file in /tmp: {}", std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  ::lseek(fd.get(), 0, SEEK_SET);
  return fd;
}

} // namespace

std::string ssh_command_from_environment()
{
  const char* value = std::getenv("EJ_SSH_COMMAND");
  return value != nullptr ? std::string(util::trim(value)) : std::string();
}

SshConnection::SshConnection(std::string destination, std::string ssh_command)
    : m_destination(std::move(destination)), m_ssh_command(std::move(ssh_command))
{
  // A private directory: whoever can reach the socket can run commands as the user on the host.
  // Under /tmp, since a socket path is limited to 108 bytes.
  char dir[] = "/tmp/ej-ssh-XXXXXX";
  if (::mkdtemp(dir) == nullptr) {
    throw Error("cannot create a directory for the ssh connection in /tmp: {}", std::strerror(errno));
  }
  m_socket_dir = dir;
  m_socket = m_socket_dir / "master";
  run::ProcessSpec spec;
  spec.argv = base_argv();
  // ControlPersist backgrounds the master once it is connected, and ends it a minute after its
  // last session should this ej be killed before it can close it.
  for (const char* option : {"ControlMaster=yes", "ControlPersist=60", "ConnectTimeout=20"}) {
    spec.argv.insert(spec.argv.end(), {"-o", option});
  }
  spec.argv.insert(spec.argv.end(), {"-f", "-N", m_destination});
  spec.timeout_s = 120;
  spec.kill_leftovers = false; // the master it leaves behind is the point
  const auto result = run::run_process(spec);
  if (!result.succeeded()) {
    const auto message = describe_failure(result, "connect");
    std::error_code ec;
    std::filesystem::remove_all(m_socket_dir, ec);
    throw Error("{}", message);
  }
}

SshConnection::~SshConnection()
{
  try {
    run::ProcessSpec spec;
    spec.argv = base_argv();
    spec.argv.insert(spec.argv.end(), {"-O", "exit", m_destination});
    spec.timeout_s = 10;
    run::run_process(spec);
  } catch (const std::exception&) {
  }
  std::error_code ec;
  std::filesystem::remove_all(m_socket_dir, ec);
}

std::vector<std::string> SshConnection::base_argv() const
{
  std::vector<std::string> argv;
  if (m_ssh_command.empty()) {
    argv = {"ssh"};
  } else {
    // As git runs GIT_SSH_COMMAND: through the shell, with the arguments appended.
    argv = {"/bin/sh", "-c", m_ssh_command + " \"$@\"", "ej-ssh"};
  }
  argv.insert(argv.end(), {"-o", "BatchMode=yes", "-o", "ControlPath=" + m_socket.string()});
  return argv;
}

std::vector<std::string> SshConnection::argv(const std::string& remote_command) const
{
  auto argv = base_argv();
  argv.insert(argv.end(), {"-o", "ControlMaster=no", "-T", m_destination, "--", remote_command});
  return argv;
}

run::ProcessResult SshConnection::run(const std::string& remote_command, std::string_view doing,
                                      std::string_view input, double timeout_s, bool keep_whole) const
{
  run::ProcessSpec spec;
  spec.argv = argv(remote_command);
  spec.timeout_s = timeout_s;
  spec.keep_whole_out = keep_whole;
  const auto stdin_file = input_file(input);
  spec.stdin_fd = stdin_file.get();
  auto result = run::run_process(spec);
  if (result.ending == run::Ending::Exited && result.exit_code == 255) {
    throw Error("{}", describe_failure(result, doing));
  }
  if (result.ending == run::Ending::Interrupted) {
    throw Error("interrupted while {} on {}", doing, m_destination);
  }
  return result;
}

std::string SshConnection::check(const std::string& remote_command, std::string_view doing,
                                 std::string_view input, double timeout_s) const
{
  const auto result = run(remote_command, doing, input, timeout_s);
  if (!result.succeeded()) {
    const auto said = ssh_said(result);
    if (result.ending == run::Ending::Exited && result.exit_code == 127) {
      throw Error(
          "cannot {} on {}: a command is missing there ({}); ej needs only a POSIX shell, tar and the "
          "benchmark's own tools on the host",
          doing, m_destination, said);
    }
    if (auto full = disk_full_error(doing, m_destination, said)) {
      throw *full;
    }
    throw Error("cannot {} on {}: {}", doing, m_destination, said);
  }
  return result.out.text();
}

std::optional<Error> disk_full_error(std::string_view doing, std::string_view destination,
                                     std::string_view said)
{
  const auto short_write =
      said.find("Wrote only ") != std::string_view::npos && said.find(" bytes") != std::string_view::npos;
  if (!short_write && !util::contains_ci(said, "No space left on device") &&
      !util::contains_ci(said, "Disk quota exceeded")) {
    return std::nullopt;
  }
  return Error(
      "cannot {} on {}: the disk there is full ({}); free space on the host, or give another root with "
      "'ej host add NAME ssh:HOST --root DIR'",
      doing, destination, util::first_line(said, 300));
}

std::string SshConnection::describe_failure(const run::ProcessResult& result, std::string_view doing) const
{
  if (result.ending == run::Ending::SpawnFailed) {
    return fmt::format("cannot run ssh to {} {}: {} (install the OpenSSH client, or set EJ_SSH_COMMAND)",
                       doing, m_destination, result.error);
  }
  if (result.ending == run::Ending::TimedOut) {
    return fmt::format(
        "ssh to {} did not answer within {:.0f} s while trying to {}; check that the host is up",
        m_destination, result.wall_s, doing);
  }
  const auto said = ssh_said(result);
  if (util::contains_ci(said, "Permission denied") ||
      util::contains_ci(said, "Too many authentication failures")) {
    return fmt::format(
        "{} refused the authentication ({}); ej runs ssh with BatchMode=yes, so no password is "
        "asked: load your key into the agent or name it in your ssh config (IdentityFile), then "
        "check with 'ssh {} true'",
        m_destination, said, m_destination);
  }
  if (util::contains_ci(said, "Host key verification failed")) {
    return fmt::format(
        "the host key of {} is unknown or has changed ({}); connect once with 'ssh {}' to check "
        "and accept it",
        m_destination, said, m_destination);
  }
  for (const char* unreachable : {"Could not resolve hostname", "Connection refused", "No route to host",
                                  "Network is unreachable", "timed out", "Connection closed by"}) {
    if (util::contains_ci(said, unreachable) && doing == "connect") {
      return fmt::format("cannot reach {} ({}); check the host name and that sshd runs there ('ssh {} true')",
                         m_destination, said, m_destination);
    }
  }
  if (doing != "connect") {
    return fmt::format("the connection to {} was lost while trying to {} ({})", m_destination, doing, said);
  }
  return fmt::format("ssh to {} failed ({})", m_destination, said);
}

} // namespace ej::remote
