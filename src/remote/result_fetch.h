#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// The result files (a metric's @FILE) of repeats run on an ssh host, brought back after each
// repeat into a local directory that mirrors the host's work tree, where they are read exactly
// like the files of a local run (measure/result_files.h).
//
// On the host, before each repeat, a plain @FILE the previous repeat wrote is removed, and one
// that was there before the run is moved aside (FILE.before-run-N, kept), as locally; a marker is
// touched. After the repeat, every plain @FILE that exists and, of each glob, the newest match
// written after the marker (to the host's file-time resolution) come back, one round trip for
// all of them. @FILE paths over ssh are relative to the benchmark's working directory and stay
// inside the work tree: anything else is refused before the run starts.
namespace ej::remote {

class ResultFetch {
public:
  // spec_files: every @FILE of the run's metrics; state_dir: a directory on the host private to
  // this run (what was moved aside, the marker); remote_root: the work tree on the host.
  ResultFetch(std::vector<std::string> spec_files, std::string run_label, std::string state_dir,
              std::filesystem::path remote_root);
  ~ResultFetch();
  ResultFetch(const ResultFetch&) = delete;
  ResultFetch& operator=(const ResultFetch&) = delete;

  // The local directory standing for a directory of the host's work tree.
  std::filesystem::path local_path(const std::filesystem::path& remote) const;

  // The shell line run in the repeat's working directory before it (a prefix of the repeat's own
  // command, so it costs no round trip). It fails, saying so on stderr, when a file that was there
  // cannot be moved aside: nothing of the user's is ever removed.
  std::string before_repeat(const std::filesystem::path& remote_cwd) const;
  // The shell line that prints the files of the repeat run in remote_cwd, framed
  // ("ej-file SIZE NAME\n" + content), and what was moved aside ("ej-moved LINE\n").
  std::string fetch_command(const std::filesystem::path& remote_cwd) const;
  // Writes what fetch_command printed under local_path(remote_cwd), after clearing what the
  // previous repeat brought; returns the lines saying what was moved aside on the host. Throws
  // ej::Error when the output is not what fetch_command prints.
  std::vector<std::string> unpack(std::string_view printed, const std::filesystem::path& remote_cwd) const;
  // Removes the run's state directory on the host (a shell line).
  std::string cleanup_command() const;

  const std::filesystem::path& local_root() const { return m_local_root; }

private:
  std::vector<std::string> m_plain;
  std::vector<std::string> m_globs;
  std::string m_run_label;
  std::string m_state_dir;
  std::filesystem::path m_remote_root;
  std::filesystem::path m_local_root;
};

// Throws ej::UsageError for a @FILE that cannot be brought back from a host: an absolute path, or
// one that leads out of the working directory.
void check_fetchable(std::string_view metric, std::string_view file);

} // namespace ej::remote
