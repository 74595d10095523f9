#pragma once

#include <memory>
#include <string>

namespace ej::run {

// A cgroup (v2) of its own for one run, where the machine lets ej make one: ej moves itself into a
// new child of its own cgroup for the length of the run, so that every process the benchmark
// starts is born inside it (a forked child inherits its parent's cgroup: nothing per repeat) and
// none can leave it: setsid, a double fork or a cleared environment do not. When the run ends ej
// moves back and stops what is still inside; should ej die first, its guardian does.
//
// Where it cannot (no writable cgroup2 hierarchy: most non-root users, many containers, or
// EJ_CGROUP=off), processes that left the benchmark's process group are still found by the
// variable every one of them inherits (see Guardian), except those that cleared their environment.
class RunCgroup {
public:
  // Entered, or nullptr with why_not saying why not.
  static std::unique_ptr<RunCgroup> enter(std::string& why_not);

  ~RunCgroup(); // leave() if it was not called
  RunCgroup(const RunCgroup&) = delete;
  RunCgroup& operator=(const RunCgroup&) = delete;

  // Moves ej back where it was, stops every process still inside and removes the cgroup. Returns
  // how many processes were still inside: those the benchmark left behind.
  int leave();

  // The same, but only the stopping is done before it returns: ej's move home waits for an RCU
  // grace period of the kernel (10-25 ms), which a helper thread waits out while ej writes the
  // run. Finished by wait_for_departures(), by the next enter(), or at ej's exit at the latest.
  int leave_in_background();
  static void wait_for_departures() noexcept;

  // Stops every process inside but ej, which stays: what the benchmark left running so far.
  int stop_others() noexcept;

  const std::string& directory() const { return m_directory; }

private:
  RunCgroup(std::string directory, std::string home_procs);

  std::string m_directory;  // the run's cgroup
  std::string m_home_procs; // cgroup.procs of the cgroup ej came from
  bool m_left = false;
};

// The cgroups of runs whose ej is gone (killed together with its guardian, which would have
// stopped them): what is still inside is stopped and the cgroups, empty ones too, are removed,
// anywhere in the hierarchy. Returns how many processes were stopped. A cgroup is named after its
// ej's pid and start time, so that a later process with the same pid is never taken for it.
int stop_abandoned_cgroups();

// Stops every process in the cgroup at `directory` (SIGKILL, through cgroup.kill where the kernel
// has it), waits a moment for it to empty and removes it. Returns how many processes it held.
// System calls only: the guardian calls it after ej is gone.
int stop_cgroup(const char* directory) noexcept;

} // namespace ej::run

namespace ej::run {

// What a run of this machine left running once its repeats were over: processes that left the
// benchmark's process group (the group itself is stopped after every repeat).
struct Leftovers {
  int processes = 0;
  std::string found_by; // "cgroup", or "environment" (those that kept EJ_GUARD)
};

// The processes of one run on this machine, held in a cgroup where it can be made; finish() stops
// what is left and says how it was found.
class RunContainment {
public:
  RunContainment();
  // Stops what is left, ej staying contained: for a session that measures in blocks, one
  // containment for all of them, since every move of ej in or out of a cgroup waits for an RCU
  // grace period of the kernel (10-25 ms), which would be paid twice a block.
  Leftovers sweep();
  Leftovers finish();

private:
  std::unique_ptr<RunCgroup> m_cgroup;
};

} // namespace ej::run
