#pragma once

#include "support/temp_dir.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// A real OpenSSH server for tests: Debian's /usr/sbin/sshd on 127.0.0.1, on a free port it picks,
// with its own host key, a user key for the current user, authorized_keys, a known_hosts file
// and a client configuration, all in a temporary directory. Clients reach it through
// ssh_command() (for EJ_SSH_COMMAND or GIT_SSH_COMMAND) and the alias() it defines. Stopped, with
// every session it still has, in the destructor.
namespace ej::test {

class SshdServer {
public:
  // Why no server can be started here (no /usr/sbin/sshd, no ssh-keygen, no ssh), or nullopt.
  static std::optional<std::string> unavailable();

  // Starts the server and waits until it accepts connections; throws std::runtime_error (with
  // its log) when it does not.
  SshdServer();
  ~SshdServer();
  SshdServer(const SshdServer&) = delete;
  SshdServer& operator=(const SshdServer&) = delete;

  // "ssh -F <config>": the client with this server's configuration.
  std::string ssh_command() const;
  // The host alias of the client configuration: ssh_command() + " " + alias() reaches the server.
  const std::string& alias() const { return m_alias; }
  // An alias of the same server whose key it does not accept, and one where nothing listens.
  std::string alias_with_refused_key() const { return m_alias + "-refused"; }
  std::string alias_unreachable() const { return m_alias + "-down"; }

  int port() const { return m_port; }
  const std::string& user() const { return m_user; }
  std::filesystem::path client_config() const { return m_dir / "ssh_config"; }
  std::filesystem::path user_key() const { return m_dir / "user_ed25519"; }
  std::filesystem::path host_key() const { return m_dir / "host_ed25519"; }
  std::filesystem::path known_hosts() const { return m_dir / "known_hosts"; }
  std::string log() const;

  // The pid of the listening sshd, and those of the processes it forked for connections (one per
  // client connection: killing one drops that connection as a network failure would).
  int pid() const { return m_pid; }
  std::vector<int> session_pids() const;
  // Kills (SIGKILL) every connection's sshd process; the server keeps listening.
  void kill_sessions() const;

private:
  TempDir m_dir{"ej-sshd"};
  std::string m_alias = "ej-test-host";
  std::string m_user;
  int m_port = 0;
  int m_pid = -1;
};

} // namespace ej::test
