#include "remote/ssh_session.h"

#include "remote/remote_environment.h"
#include "remote/remote_wrapper.h"
#include "util/error.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::remote {

SshSession::SshSession(const HostEntry& host) : m_entry(host)
{
  m_connection =
      std::make_unique<SshConnection>(ssh_destination(host.target), ssh_command_from_environment());
  // One round trip: the wrapper is written unless this version is there, and the host says who
  // it is. $HOME is where a relative root lives.
  const auto wrapper = ".cache/ej/" + wrapper_file_name();
  const auto out = m_connection->check(fmt::format("mkdir -p .cache/ej && {{ [ -f {0} ] && cat > /dev/null "
                                                   "|| {{ cat > {0}.tmp && mv {0}.tmp {0}; }}; }} "
                                                   "&& printf '%s\\n' \"$HOME\" && hostname",
                                                   util::shell_quote(wrapper)),
                                       "prepare the host", wrapper_script());
  const auto lines = util::lines(out);
  if (lines.size() < 2 || lines[0].empty()) {
    throw Error(
        "{} did not say its home directory and name (it printed '{}'); is its login shell a POSIX shell?",
        m_connection->destination(), util::first_line(out, 200));
  }
  m_home = lines[0];
  m_hostname = lines[1];
  m_host = std::make_unique<SshHost>(*m_connection, m_home + "/" + wrapper, host.env);
}

std::string SshSession::repo_dir(const std::string& repo_name) const
{
  std::string root = m_entry.root.empty() ? "~/.cache/ej/work" : m_entry.root;
  if (root == "~" || root.rfind("~/", 0) == 0) {
    root = m_home + root.substr(1);
  } else if (root.front() != '/') {
    root = m_home + "/" + root;
  }
  return root + "/" + repo_name;
}

ShippedCode SshSession::ship(const CodeToShip& code, const std::string& repo_name) const
{
  return ship_code(*m_connection, code, repo_dir(repo_name));
}

std::vector<std::string> SshSession::command_argv(const std::vector<std::string>& argv) const
{
  std::vector<std::string> words = {"env"};
  for (const auto& [name, value] : m_entry.env) {
    words.push_back(name + "=" + value);
  }
  words.insert(words.end(), argv.begin(), argv.end());
  return m_connection->argv(util::shell_join(words));
}

run::EnvSnapshot SshSession::snapshot(const run::EnvOptions& options, const std::string& work_dir) const
{
  // The host's own variables reach every process there: the snapshot says so.
  auto with_host = options;
  for (const auto& entry : m_entry.env) {
    with_host.extra_variables.push_back(entry.first);
    with_host.overrides.insert(with_host.overrides.begin(), entry);
  }
  return capture_remote_environment(*m_connection, with_host, work_dir);
}

} // namespace ej::remote
