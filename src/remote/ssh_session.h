#pragma once

#include "remote/code_shipping.h"
#include "remote/host_registry.h"
#include "remote/ssh_connection.h"
#include "remote/ssh_host.h"
#include "run/environment.h"

#include <memory>
#include <string>

// Everything a run on an ssh host needs, in the order it needs it: the connection, the wrapper
// uploaded (once per version of it), the code shipped, the snapshot taken there, and the host the
// repeats run on.
namespace ej::remote {

class SshSession {
public:
  // Connects and uploads the wrapper; throws ej::Error with what went wrong.
  explicit SshSession(const HostEntry& host);

  const std::string& hostname() const { return m_hostname; } // as the host names itself
  const std::string& home() const { return m_home; }
  const SshConnection& connection() const { return *m_connection; }

  // <root>/<repo> on the host: root from ej host add --root (~ is the home there), default
  // ~/.cache/ej/work.
  std::string repo_dir(const std::string& repo_name) const;
  ShippedCode ship(const CodeToShip& code, const std::string& repo_name) const;
  run::EnvSnapshot snapshot(const run::EnvOptions& options, const std::string& work_dir) const;
  // The local argv that runs argv on the host through the connection, with the host's variables
  // (ej host add --env) set.
  std::vector<std::string> command_argv(const std::vector<std::string>& argv) const;
  // The host the build step and the repeats run on.
  SshHost& host() { return *m_host; }

private:
  HostEntry m_entry;
  std::unique_ptr<SshConnection> m_connection;
  std::string m_hostname;
  std::string m_home;
  std::unique_ptr<SshHost> m_host;
};

} // namespace ej::remote
