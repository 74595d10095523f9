#pragma once

#include "run/process.h"
#include "util/error.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// One OpenSSH master connection (ControlMaster) for the whole of a run: every remote command of
// the run (shipping, the snapshot, each repeat) goes through it, so a repeat costs one round trip,
// not a handshake. The user's own ssh and configuration are used (aliases, keys, agent,
// ProxyJump); EJ_SSH_COMMAND replaces "ssh" as GIT_SSH_COMMAND does for git.
namespace ej::remote {

class SshConnection {
public:
  // Connects (BatchMode: a password prompt would hang a run); throws ej::Error saying whether the
  // host could not be reached, refused the key, or what else ssh said. ssh_command: the value of
  // EJ_SSH_COMMAND, empty for plain "ssh".
  SshConnection(std::string destination, std::string ssh_command);
  // Closes the master connection and removes its private socket directory.
  ~SshConnection();
  SshConnection(const SshConnection&) = delete;
  SshConnection& operator=(const SshConnection&) = delete;

  const std::string& destination() const { return m_destination; }

  // The local argv that runs remote_command (a line for the remote shell) through the master.
  std::vector<std::string> argv(const std::string& remote_command) const;

  // Runs remote_command with `input` on its stdin; returns what it did. A failure of ssh itself
  // (the connection, exit 255 without the command's own status) throws ej::Error naming `doing`.
  // keep_whole: stdout is kept whole (Capture::whole) however large.
  run::ProcessResult run(const std::string& remote_command, std::string_view doing,
                         std::string_view input = {}, double timeout_s = 120, bool keep_whole = false) const;
  // The same, and throws unless the command succeeded: what the remote side said is in the message.
  std::string check(const std::string& remote_command, std::string_view doing, std::string_view input = {},
                    double timeout_s = 120) const;

  // A message for a failed ssh process (unreachable, authentication refused, connection lost...).
  std::string describe_failure(const run::ProcessResult& result, std::string_view doing) const;

private:
  std::vector<std::string> base_argv() const;

  std::string m_destination;
  std::string m_ssh_command;
  std::filesystem::path m_socket_dir;
  std::filesystem::path m_socket;
};

// What a command on the host said when it failed (stderr), read for a full disk: ENOSPC or EDQUOT
// in words, or GNU tar's short write ("Wrote only 2560 of 10240 bytes"), which is how it says a
// full disk when the last block does not fit. Returns the error that says so, or nullopt.
std::optional<Error> disk_full_error(std::string_view doing, std::string_view destination,
                                     std::string_view said);

// EJ_SSH_COMMAND, or empty.
std::string ssh_command_from_environment();

} // namespace ej::remote
