#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// The hosts `ej host add` registered. They are this machine's configuration (ssh aliases, keys
// and directories of this user), not journal history: kept in a file beside the journal
// (<journal dir>/hosts.json), never shared by ej sync. A run records the host's name, its ssh
// destination and its hostname.
namespace ej::remote {

struct HostEntry {
  std::string name;
  std::string target; // "ssh:DESTINATION"
  std::string root;   // work directories on the host; empty: ~/.cache/ej/work
  std::vector<std::pair<std::string, std::string>> env; // set for every process there
};

std::vector<HostEntry> load_hosts(const std::filesystem::path& file);
// Adds or replaces (by name).
void save_host(const std::filesystem::path& file, const HostEntry& entry);

// What `--on` names: "ssh:DEST" as it is, or the name of a registered host. Throws a usage
// error otherwise.
HostEntry resolve_host(const std::filesystem::path& file, const std::string& on);

// "ssh:DEST" -> "DEST"; throws a usage error for any other kind of target.
std::string ssh_destination(const std::string& target);

} // namespace ej::remote
