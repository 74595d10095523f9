#pragma once

#include <git2.h>

#include <string>
#include <vector>

// How ej talks to a remote as the user would: ssh keys from the agent or ~/.ssh, passwords from
// git's credential helpers (`git credential fill`), and ssh host keys checked against
// ~/.ssh/known_hosts (libgit2 1.5 checks none itself).
namespace ej::git {

struct RemoteAuth {
  std::string url;                        // the remote's URL: its host and port name the known_hosts entry
  int attempts = 0;                       // libgit2 asks again after a refused credential: bounded
  std::string refused_host_key;           // why a host key was refused, for the error message
  std::vector<std::string> rejected_refs; // a push's refs the remote refused: "ref: why"
};

// Fills callbacks.credentials and callbacks.certificate_check, with auth as their payload.
void use_user_credentials(git_remote_callbacks& callbacks, RemoteAuth& auth);

} // namespace ej::git
