#include "run/owner.h"

#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <fstream>

namespace ej::run {

namespace {

// Field `field` (3 or more) of /proc/PID/stat as a number; nullopt when there is no such process.
std::optional<std::uint64_t> stat_field(std::int64_t pid, int field)
{
  // Not util::read_file: the process may exit between any two steps of the read, which must then
  // say "no such process", never throw (open fails with ENOENT, read with ESRCH).
  // The whole file, not its first line: the process's name may hold a newline.
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat;
  if (!std::getline(in, stat, '\0')) {
    return std::nullopt;
  }
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so count from the last ')'.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::string_view rest = std::string_view(stat).substr(close + 1);
  for (int skipped = 3; skipped < field; ++skipped) {
    const auto start = rest.find_first_not_of(' ');
    const auto end = start == std::string_view::npos ? start : rest.find(' ', start);
    if (end == std::string_view::npos) {
      return std::nullopt;
    }
    rest.remove_prefix(end);
  }
  rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (ec != std::errc() || end == rest.data()) {
    return std::nullopt;
  }
  return value;
}

} // namespace

std::optional<std::uint64_t> process_start_ticks(std::int64_t pid)
{
  return stat_field(pid, 22);
}

std::optional<std::int64_t> parent_pid(std::int64_t pid)
{
  const auto parent = stat_field(pid, 4);
  return parent ? std::optional<std::int64_t>(static_cast<std::int64_t>(*parent)) : std::nullopt;
}

std::string boot_id()
{
  const auto text = util::read_file("/proc/sys/kernel/random/boot_id");
  return text ? std::string(util::trim(*text)) : std::string();
}

OwnerState owner_state(std::int64_t pid, std::optional<std::uint64_t> start_ticks, const std::string& boot)
{
  if (boot != boot_id()) {
    return OwnerState::Gone;
  }
  if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
    return OwnerState::Gone;
  }
  if (!start_ticks) {
    return OwnerState::Running;
  }
  const auto now = process_start_ticks(pid);
  // Unreadable (another user's process under hidepid): it exists, so it may be the owner.
  if (!now) {
    return OwnerState::Running;
  }
  return *now == *start_ticks ? OwnerState::Running : OwnerState::Gone;
}

} // namespace ej::run
