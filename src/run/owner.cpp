#include "run/owner.h"

#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <csignal>

namespace ej::run {

std::optional<std::uint64_t> process_start_ticks(std::int64_t pid)
{
  const auto stat = util::read_file(fmt::format("/proc/{}/stat", pid));
  if (!stat) {
    return std::nullopt;
  }
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so count from the last ')'.
  const auto close = stat->rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::string_view rest = std::string_view(*stat).substr(close + 1);
  // After COMM come fields 3 (state) to 52; the start time is field 22, the 20th of them.
  for (int field = 3; field < 22; ++field) {
    const auto start = rest.find_first_not_of(' ');
    const auto end = start == std::string_view::npos ? start : rest.find(' ', start);
    if (end == std::string_view::npos) {
      return std::nullopt;
    }
    rest.remove_prefix(end);
  }
  rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
  std::uint64_t ticks = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), ticks);
  if (ec != std::errc() || end == rest.data()) {
    return std::nullopt;
  }
  return ticks;
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
