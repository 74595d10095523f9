#pragma once

#include "remote/ssh_connection.h"

#include <filesystem>
#include <string>
#include <vector>

// Puts the exact code state of a run on an ssh host: the HEAD commit (`git archive`, streamed
// through the connection into tar there) once per commit, and for a dirty state a copy of it with
// the changed and untracked files laid over and the deleted ones removed, once per state. Only a
// POSIX shell, cp and tar are needed on the host; no git, no ej.
namespace ej::remote {

struct CodeToShip {
  std::filesystem::path work_tree;        // here
  std::string commit;                     // HEAD
  std::string state;                      // identifies commit + diff + untracked files; empty when clean
  std::vector<std::string> changed_files; // relative to the work tree: copied
  std::vector<std::string> deleted_files; // removed
};

struct ShippedCode {
  std::string work_dir;        // on the host, absolute
  bool commit_shipped = false; // false: the commit was there already
  bool state_shipped = false;  // the same for the dirty state
};

// repo_dir: the host's directory for this repository (<root>/<repo>), absolute.
ShippedCode ship_code(const SshConnection& connection, const CodeToShip& code, const std::string& repo_dir);

} // namespace ej::remote
