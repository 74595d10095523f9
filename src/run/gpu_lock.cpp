#include "run/gpu_lock.h"

#include "core/numbering.h"
#include "run/owner.h"
#include "run/signals.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ej::run {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int k_retry_ms = 100; // between two tries of a waiter

bool is_index(std::string_view token)
{
  return !token.empty() &&
         std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_uuid_like(std::string_view token)
{
  if (!(token.starts_with("GPU-") || token.starts_with("MIG-"))) {
    return false;
  }
  return std::all_of(token.begin(), token.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '/' || c == '.' || c == '_';
  });
}

// A name that is safe as one path component.
std::string file_name(std::string_view text)
{
  std::string name;
  for (const char c : text) {
    const bool plain = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '-' || c == '.' || c == '_';
    name += plain ? c : '_';
  }
  return name.empty() || name == "." || name == ".." ? "_" + name : name;
}

std::int64_t wall_clock_ms()
{
  // Not util::now_ms: EJ_NOW fixes that one, and the queue's order needs the real time.
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A folder every ej of the machine may write to, whoever made it first (sticky, as /tmp).
void make_shared_dir(const fs::path& dir)
{
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    return;
  }
  if (::mkdir(dir.c_str(), 01777) != 0 && errno != EEXIST) {
    throw Error("cannot create the GPU lock folder {}: {}; set EJ_GPU_LOCK_DIR to a folder every ej of this "
                "machine can write",
                dir.string(), std::strerror(errno));
  }
  ::chmod(dir.c_str(), 01777); // past the umask; fails harmlessly when another user made it
}

fs::path host_dir(const fs::path& dir, const std::string& host)
{
  return dir / file_name(host);
}

json gpus_json(const GpuSet& gpus)
{
  return gpus.all ? json("all") : json(gpus.devices);
}

GpuSet gpus_from_json(const json& value)
{
  GpuSet gpus;
  if (value.is_array()) {
    gpus.all = false;
    for (const auto& device : value) {
      if (device.is_string()) {
        gpus.devices.push_back(device.get<std::string>());
      }
    }
  }
  return gpus;
}

std::string ticket_text(const LockTicket& t)
{
  return json{{"run", t.run},
              {"bench", t.bench},
              {"journal", t.journal},
              {"host", t.host},
              {"gpus", gpus_json(t.gpus)},
              {"pid", t.pid},
              {"start_ticks", t.start_ticks},
              {"boot_id", t.boot_id},
              {"since_ms", t.since_ms},
              {"holding", t.holding}}
      .dump();
}

std::optional<LockTicket> ticket_from_text(const std::string& text)
{
  const auto value = json::parse(text, nullptr, false);
  if (!value.is_object()) {
    return std::nullopt;
  }
  LockTicket t;
  t.run = value.value("run", 0);
  t.bench = value.value("bench", "");
  t.journal = value.value("journal", "");
  t.host = value.value("host", "");
  t.gpus = gpus_from_json(value.value("gpus", json()));
  t.pid = value.value("pid", std::int64_t{0});
  t.start_ticks = value.value("start_ticks", std::uint64_t{0});
  t.boot_id = value.value("boot_id", "");
  t.since_ms = value.value("since_ms", std::int64_t{0});
  t.holding = value.value("holding", false);
  return t;
}

bool alive(const LockTicket& t)
{
  const auto ticks = t.start_ticks == 0 ? std::nullopt : std::optional<std::uint64_t>(t.start_ticks);
  return owner_state(t.pid, ticks, t.boot_id) == OwnerState::Running;
}

bool same_process(const LockTicket& a, const LockTicket& b)
{
  return a.pid == b.pid && a.start_ticks == b.start_ticks;
}

// The live tickets of one host's folder; those of processes that are gone are removed.
std::vector<LockTicket> host_tickets(const fs::path& folder)
{
  std::vector<LockTicket> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder / "tickets", ec)) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    std::optional<std::string> text;
    try {
      text = util::read_file(entry.path());
    } catch (const Error&) {
      continue; // removed meanwhile, or unreadable: not a ticket to count
    }
    const auto ticket = text ? ticket_from_text(*text) : std::nullopt;
    if (!ticket) {
      continue;
    }
    if (!alive(*ticket)) {
      fs::remove(entry.path(), ec);
      continue;
    }
    found.push_back(*ticket);
  }
  return found;
}

bool comes_before(const LockTicket& a, const LockTicket& b)
{
  return a.since_ms != b.since_ms ? a.since_ms < b.since_ms : a.pid < b.pid;
}

// Holders whose GPUs overlap, then waiters that came before `me` (all waiters when `me` has none).
std::vector<LockTicket> ahead_of(const fs::path& dir, const LockTicket& me, bool me_waits)
{
  std::vector<LockTicket> holders;
  std::vector<LockTicket> waiters;
  for (const auto& t : host_tickets(host_dir(dir, me.host))) {
    if (same_process(t, me) || !t.gpus.overlaps(me.gpus)) {
      continue;
    }
    if (t.holding) {
      holders.push_back(t);
    } else if (!me_waits || comes_before(t, me)) {
      waiters.push_back(t);
    }
  }
  std::sort(waiters.begin(), waiters.end(), comes_before);
  holders.insert(holders.end(), waiters.begin(), waiters.end());
  return holders;
}

util::UniqueFd open_lock_file(const fs::path& path)
{
  util::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666));
  if (!fd && errno == EACCES) {
    fd.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)); // flock needs no write access
  }
  if (!fd) {
    throw Error("cannot open the GPU lock {}: {}; set EJ_GPU_LOCK_DIR to a folder every ej of this machine "
                "can write",
                path.string(), std::strerror(errno));
  }
  ::fchmod(fd.get(), 0666); // another user's ej must open it too; fails harmlessly when not ours
  return fd;
}

// Every lock of the set, or none: nothing is held while waiting, so waiters cannot deadlock.
std::optional<std::vector<util::UniqueFd>> try_lock(const fs::path& folder, const GpuSet& gpus)
{
  std::vector<util::UniqueFd> fds;
  const auto take = [&](const std::string& name, int mode) {
    auto fd = open_lock_file(folder / (name + ".lock"));
    while (::flock(fd.get(), mode | LOCK_NB) != 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno == EWOULDBLOCK) {
        return false;
      }
      throw Error("cannot lock {}: {}", (folder / (name + ".lock")).string(), std::strerror(errno));
    }
    fds.push_back(std::move(fd));
    return true;
  };
  if (!take("all", gpus.all ? LOCK_EX : LOCK_SH)) {
    return std::nullopt;
  }
  for (const auto& device : gpus.devices) {
    if (!take("gpu-" + file_name(device), LOCK_EX)) {
      return std::nullopt;
    }
  }
  return fds;
}

fs::path prepare(const fs::path& dir, LockTicket& ticket)
{
  make_shared_dir(dir);
  const auto folder = host_dir(dir, ticket.host);
  make_shared_dir(folder);
  make_shared_dir(folder / "tickets");
  ticket.pid = ::getpid();
  ticket.start_ticks = process_start_ticks(ticket.pid).value_or(0);
  ticket.boot_id = boot_id();
  ticket.since_ms = wall_clock_ms();
  return folder / "tickets" / fmt::format("{}-{}.json", ticket.pid, ticket.start_ticks);
}

bool same_people(const std::vector<LockTicket>& a, const std::vector<LockTicket>& b)
{
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const LockTicket& x, const LockTicket& y) {
    return same_process(x, y) && x.run == y.run && x.holding == y.holding;
  });
}

} // namespace

bool GpuSet::overlaps(const GpuSet& other) const
{
  if (all || other.all) {
    return true;
  }
  return std::any_of(devices.begin(), devices.end(), [&](const std::string& d) {
    return std::find(other.devices.begin(), other.devices.end(), d) != other.devices.end();
  });
}

bool GpuSet::covers(const GpuSet& other) const
{
  if (all || other.all) {
    return all;
  }
  return std::all_of(other.devices.begin(), other.devices.end(), [&](const std::string& d) {
    return std::find(devices.begin(), devices.end(), d) != devices.end();
  });
}

GpuSet parse_gpu_list(std::string_view text)
{
  GpuSet gpus;
  gpus.all = false;
  for (const auto& entry : util::split(text, ',')) {
    const auto token = std::string(util::trim(entry));
    if (token.empty() && util::trim(text).empty()) {
      continue; // CUDA_VISIBLE_DEVICES="" hides every GPU
    }
    if (!is_index(token) && !is_uuid_like(token)) {
      throw Error("'{}' is not a GPU: give indexes or UUIDs separated by commas, as CUDA_VISIBLE_DEVICES "
                  "takes them (0,1 or GPU-8f3c...)",
                  token);
    }
    if (std::find(gpus.devices.begin(), gpus.devices.end(), token) == gpus.devices.end()) {
      gpus.devices.push_back(token);
    }
  }
  return gpus;
}

std::string describe(const GpuSet& gpus)
{
  if (gpus.all) {
    return "all GPUs";
  }
  if (gpus.devices.empty()) {
    return "no GPU";
  }
  const bool numeric = std::all_of(gpus.devices.begin(), gpus.devices.end(), is_index);
  if (!numeric || gpus.devices.size() == 1) {
    return fmt::format("GPU{} {}", gpus.devices.size() == 1 ? "" : "s", util::join(gpus.devices, ","));
  }
  std::vector<long> indexes;
  for (const auto& d : gpus.devices) {
    indexes.push_back(std::strtol(d.c_str(), nullptr, 10));
  }
  std::sort(indexes.begin(), indexes.end());
  std::vector<std::string> ranges;
  for (std::size_t i = 0; i < indexes.size();) {
    std::size_t j = i;
    while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) {
      ++j;
    }
    ranges.push_back(j > i ? fmt::format("{}-{}", indexes[i], indexes[j]) : fmt::format("{}", indexes[i]));
    i = j + 1;
  }
  return "GPUs " + util::join(ranges, ",");
}

std::string describe(const LockTicket& ticket, const std::string& journal)
{
  const auto who = ticket.run > 0 ? fmt::format("run {}", core::number_label(ticket.run))
                                  : fmt::format("a run of {} (pid {})", ticket.bench, ticket.pid);
  return fmt::format("{}{} on {}, {}", who, ticket.journal == journal ? "" : " in " + ticket.journal,
                     ticket.host, describe(ticket.gpus));
}

fs::path default_lock_dir()
{
  if (const char* dir = std::getenv("EJ_GPU_LOCK_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return "/tmp/ej-gpu-locks";
}

GpuLock::GpuLock(fs::path ticket_path, LockTicket ticket, std::vector<util::UniqueFd> fds)
    : m_ticket_path(std::move(ticket_path)), m_ticket(std::move(ticket)), m_fds(std::move(fds))
{
  m_ticket.holding = true;
  util::write_file_atomic(m_ticket_path, ticket_text(m_ticket));
}

GpuLock::~GpuLock()
{
  std::error_code ec;
  fs::remove(m_ticket_path, ec); // first: a waiter that wins the lock next must not see us holding
  for (auto& fd : m_fds) {
    ::flock(fd.get(), LOCK_UN);
  }
}

void GpuLock::set_run(int run)
{
  m_ticket.run = run;
  util::write_file_atomic(m_ticket_path, ticket_text(m_ticket));
}

std::unique_ptr<GpuLock> GpuLock::try_acquire(const fs::path& dir, LockTicket ticket)
{
  const auto path = prepare(dir, ticket);
  // Runs already queued for these GPUs go first.
  if (!ahead_of(dir, ticket, false).empty()) {
    return nullptr;
  }
  auto fds = try_lock(host_dir(dir, ticket.host), ticket.gpus);
  if (!fds) {
    return nullptr;
  }
  return std::unique_ptr<GpuLock>(new GpuLock(path, std::move(ticket), std::move(*fds)));
}

std::unique_ptr<GpuLock> GpuLock::acquire(const fs::path& dir, LockTicket ticket,
                                          const std::function<void(const std::vector<LockTicket>&)>& on_wait)
{
  const auto path = prepare(dir, ticket);
  ticket.holding = false;
  util::write_file_atomic(path, ticket_text(ticket));
  std::vector<LockTicket> told;
  bool first = true;
  while (true) {
    auto ahead = ahead_of(dir, ticket, true);
    const bool waiters_ahead =
        std::any_of(ahead.begin(), ahead.end(), [](const LockTicket& t) { return !t.holding; });
    if (!waiters_ahead) {
      if (auto fds = try_lock(host_dir(dir, ticket.host), ticket.gpus)) {
        return std::unique_ptr<GpuLock>(new GpuLock(path, std::move(ticket), std::move(*fds)));
      }
    }
    if (first || !same_people(ahead, told)) {
      on_wait(ahead);
      told = ahead;
      first = false;
    }
    pollfd wake{InterruptGuard::wake_fd(), POLLIN, 0};
    ::poll(&wake, 1, k_retry_ms);
    if (InterruptGuard::interrupted()) {
      std::error_code ec;
      fs::remove(path, ec);
      return nullptr;
    }
  }
}

std::optional<LockTicket> GpuLock::held_by_ancestor(const fs::path& dir, const LockTicket& ticket)
{
  std::vector<std::int64_t> ancestors;
  constexpr int k_max_depth = 256; // a cycle in a corrupt /proc must not hang the run
  for (auto pid = parent_pid(::getpid()); pid && *pid > 1 && ancestors.size() < k_max_depth;
       pid = parent_pid(*pid)) {
    ancestors.push_back(*pid);
  }
  // Live tickets only (host_tickets): a pid is the process that wrote the ticket, not a later one.
  for (const auto& t : host_tickets(host_dir(dir, ticket.host))) {
    if (t.holding && t.gpus.overlaps(ticket.gpus) &&
        std::find(ancestors.begin(), ancestors.end(), t.pid) != ancestors.end()) {
      return t;
    }
  }
  return std::nullopt;
}

std::vector<LockTicket> GpuLock::tickets(const fs::path& dir)
{
  std::vector<LockTicket> all;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec)) {
      const auto found = host_tickets(entry.path());
      all.insert(all.end(), found.begin(), found.end());
    }
  }
  std::sort(all.begin(), all.end(), [](const LockTicket& a, const LockTicket& b) {
    if (a.holding != b.holding) {
      return a.holding;
    }
    if (a.host != b.host) {
      return a.host < b.host;
    }
    return comes_before(a, b);
  });
  return all;
}

} // namespace ej::run
