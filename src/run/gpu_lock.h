#pragma once

#include "util/unique_fd.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// One benchmark per GPU at a time, per machine: flock(2) locks in a directory every ej of the
// machine shares (every repository, every user), so that two journals on one GPU box cannot
// measure each other's load. A run takes "all" shared and each of its GPUs exclusively, or "all"
// exclusively when it uses every GPU; the kernel drops the locks of a process that dies.
//
// Beside the locks, each waiting or holding ej keeps a ticket (a small JSON file: run, bench,
// journal, host, GPUs, pid) so that a waiter can say for whom it waits and `ej runs --queue` can
// list the queue. Tickets of processes that are gone are ignored and removed.
//
// The locks of a host live in a folder named after it: an ej that runs a benchmark on another
// machine (ssh) can take that machine's locks here.
namespace ej::run {

// The GPUs a run uses: every GPU of the machine, or the devices CUDA_VISIBLE_DEVICES names
// (indexes, or GPU-/MIG- UUIDs; an index and the UUID of the same GPU are not told to be one).
struct GpuSet {
  bool all = true;
  std::vector<std::string> devices;

  bool overlaps(const GpuSet& other) const;
  // Every GPU of `other` is one of these (all GPUs cover any set; a set of devices never all GPUs).
  bool covers(const GpuSet& other) const;
};

// "0,1,3" (CUDA_VISIBLE_DEVICES's syntax); an empty text is no GPU. Throws ej::Error when an entry
// is neither an index nor a UUID.
GpuSet parse_gpu_list(std::string_view text);
// "all GPUs", "GPU 3", "GPUs 0-3,6", "no GPU".
std::string describe(const GpuSet& gpus);

// Who waits for or holds GPUs.
struct LockTicket {
  int run = 0; // 0 before the run has a number
  std::string bench;
  std::string journal; // the repository's work tree
  std::string host;
  GpuSet gpus;
  std::int64_t pid = 0;
  std::uint64_t start_ticks = 0;
  std::string boot_id;
  std::int64_t since_ms = 0;
  bool holding = false; // false: waiting
};

// "run #12 of gemm on gpu-box, GPUs 0-7" (with the repository when it is not `journal`).
std::string describe(const LockTicket& ticket, const std::string& journal);

// $EJ_GPU_LOCK_DIR, else /tmp/ej-gpu-locks (shared by the machine's users: sticky, world-writable).
std::filesystem::path default_lock_dir();

class GpuLock {
public:
  // Takes the locks now, or returns nullptr when another ej holds some of them.
  static std::unique_ptr<GpuLock> try_acquire(const std::filesystem::path& dir, LockTicket ticket);
  // Waits for the locks, leaving a waiting ticket; `on_wait` is called with the holders that
  // stand in the way whenever they change. Returns nullptr when an InterruptGuard's signal came.
  static std::unique_ptr<GpuLock> acquire(const std::filesystem::path& dir, LockTicket ticket,
                                          const std::function<void(const std::vector<LockTicket>&)>& on_wait);
  // The holder of GPUs that overlap `ticket`'s that is an ancestor of this process: a run whose
  // benchmark started this ej (ej measuring ej, a script that runs ej). Waiting for it would wait
  // until its repeat timed out; the run measures inside its hold instead.
  static std::optional<LockTicket> held_by_ancestor(const std::filesystem::path& dir, const LockTicket& ticket);
  // The live tickets of every host, holders first, then waiters by the time they came.
  static std::vector<LockTicket> tickets(const std::filesystem::path& dir);

  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;
  ~GpuLock(); // unlocks and removes the ticket

  // The run number, once the run is recorded.
  void set_run(int run);
  const LockTicket& ticket() const { return m_ticket; }

private:
  GpuLock(std::filesystem::path ticket_path, LockTicket ticket, std::vector<util::UniqueFd> fds);

  std::filesystem::path m_ticket_path;
  LockTicket m_ticket;
  std::vector<util::UniqueFd> m_fds;
};

} // namespace ej::run
