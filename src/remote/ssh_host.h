#pragma once

#include "remote/remote_wrapper.h"
#include "remote/result_fetch.h"
#include "remote/ssh_connection.h"
#include "run/host.h"
#include "util/unique_fd.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ej::remote {

// A run's processes on an ssh host: each is still a local child (`ssh ... sh ej-wrapper.sh ...`)
// run by the usual run::Launcher, so that repeats, timeouts, Ctrl-C and statuses work as they do
// here; what the wrapper measured on the host replaces what was measured of the ssh client.
class SshHost final : public run::Host {
public:
  // wrapper_path: where the wrapper was uploaded; env: the host's own variables (ej host add
  // --env), set before the benchmark's.
  SshHost(const SshConnection& connection, std::string wrapper_path,
          std::vector<std::pair<std::string, std::string>> env);

  run::ProcessSpec prepare(run::ProcessSpec spec) override;
  void settle(run::ProcessResult& result) override;
  std::optional<std::string> read_text(const std::filesystem::path& path) override;
  void write_text(const std::filesystem::path& path, const std::string& text) override;
  void fetch_result_files(const std::vector<std::string>& spec_files, const std::string& run_label,
                          const std::filesystem::path& work_tree) override;
  std::filesystem::path local_path(const std::filesystem::path& path) const override;
  // Every process of the run still holding its marker there (setsid escapers, daemons), stopped.
  std::optional<run::Leftovers> stop_leftovers() override;
  ~SshHost() override;

private:
  void bring_back_results(run::ProcessResult& result);

  const SshConnection& m_connection;
  std::string m_wrapper_path;
  std::vector<std::pair<std::string, std::string>> m_env;
  std::string m_nonce;
  std::string m_guard; // the value of EJ_GUARD every process of the run gets there
  // ssh's stdin: a pipe ej never writes; it closes when ej goes, which the wrapper notices.
  util::UniqueFd m_stdin_read;
  util::UniqueFd m_stdin_write;
  // The filters of the processes prepared so far and still alive (a repeat's, a --prepare
  // command's): one process runs at a time, so settle() finishes them all, idle ones being no-ops.
  std::vector<std::weak_ptr<TrailerFilter>> m_filters;
  std::unique_ptr<ResultFetch> m_results;
  std::filesystem::path m_cwd; // of the process prepared last
};

} // namespace ej::remote
