#pragma once

#include "run/process.h"
#include "run/run_cgroup.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ej::run {

// Where the processes of a run (its build step and repeats) execute. This machine runs each
// ProcessSpec as it is. A remote host rewrites it into a local process that runs it there (an
// `ssh` through one connection), and once that process ended reads what was measured there back
// into the result, so that repeats, samples and statuses are recorded exactly as for a local run.
class Host {
public:
  Host() = default;
  virtual ~Host() = default;
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // spec.cwd names a directory of this host.
  virtual ProcessSpec prepare(ProcessSpec spec) = 0;
  // Called with what the Launcher of a prepared spec returned.
  virtual void settle(ProcessResult& result) = 0;
  // A small file of this host (a build-state marker), nullopt when there is none.
  virtual std::optional<std::string> read_text(const std::filesystem::path& path) = 0;
  virtual void write_text(const std::filesystem::path& path, const std::string& text) = 0;

  // Result files (a metric's @FILE) of the repeats to come, in directories under work_tree. This
  // machine reads them where they are; a remote host brings those of each repeat back, in settle(),
  // into a local directory that stands for its work tree (local_path).
  virtual void fetch_result_files(const std::vector<std::string>&, const std::string& /*run_label*/,
                                  const std::filesystem::path& /*work_tree*/)
  {
  }
  // Where a directory of this host is read from here.
  virtual std::filesystem::path local_path(const std::filesystem::path& path) const { return path; }
  // At the end of a run on another machine: stops what the run's processes left running there
  // outside their process groups and says how many; nullopt when this host cannot tell.
  virtual std::optional<Leftovers> stop_leftovers() { return std::nullopt; }
  // Whether its processes are this machine's (ej can hold them in a cgroup and stop what is left).
  virtual bool is_this_machine() const { return false; }
};

// This machine.
class LocalHost final : public Host {
public:
  ProcessSpec prepare(ProcessSpec spec) override { return spec; }
  void settle(ProcessResult&) override {}
  std::optional<std::string> read_text(const std::filesystem::path& path) override;
  void write_text(const std::filesystem::path& path, const std::string& text) override;
  bool is_this_machine() const override { return true; }
};

} // namespace ej::run
