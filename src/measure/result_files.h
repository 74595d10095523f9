#pragma once

// The result files benchmarks write (a metric's @FILE), around the repeats of one run.
//
// A plain path inside the work tree is ej's to manage: a file already there when the run starts
// is the user's, so it is moved aside (FILE.before-run-N, kept, and said on stderr); between
// repeats the file the previous repeat wrote is removed, so a repeat that writes nothing is never
// read from an older one. A glob (`results/vllm-*.json`), or a path that leads outside the work
// tree (absolute, or through a symlink), is never moved or removed: the newest match modified
// since the repeat started is read, and the run says which.

#include "measure/metric_spec.h"
#include "measure/text_source.h"

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ej::measure {

// Whether a @FILE is a glob: it holds '*', '?' or '['.
bool is_glob(std::string_view file);

class ResultFiles {
public:
  // work_tree: where ej may move and remove files; run_label names the files moved aside ("run-7"
  // gives FILE.before-run-7).
  ResultFiles(const std::vector<MetricSpec>& metrics, std::filesystem::path work_tree, std::string run_label);

  // Before each repeat, in the benchmark's working directory cwd (it may change with the
  // parameters): moves aside a file this run did not write, removes one the previous repeat
  // wrote. Returns one line per file moved aside, for the user. Throws ej::Error when a file
  // cannot be moved aside.
  std::vector<std::string> before_repeat(const std::filesystem::path& cwd);
  // The file spec reads after the repeat, nullopt when the repeat wrote none. Throws ej::Error
  // when it cannot be read.
  std::optional<TextSource> open(const MetricSpec& spec);

  // What the last open() of a glob read: "'results/a.json' (the newest of 3 files matching
  // 'results/*.json' written during the repeat)"; empty after a plain file.
  const std::string& last_choice() const { return m_last_choice; }

private:
  struct File {
    std::filesystem::path path; // cwd / @FILE, lexically normal
    bool managed = false;       // inside the work tree and no glob: moved aside and removed
    bool ours = false;          // what is there now was written during this run
  };
  File& file_for(const std::string& spec_file);

  std::vector<std::string> m_spec_files; // every @FILE of the metrics, once
  std::filesystem::path m_root;          // the work tree, symlinks resolved
  std::string m_run_label;
  std::filesystem::path m_cwd;       // the repeat's directory, normalized
  std::filesystem::path m_cwd_given; // as before_repeat was given it
  std::vector<File> m_files;   // by path, across working directories
  timespec m_repeat_started{}; // coarse realtime clock, the one file times come from
  std::string m_last_choice;
};

} // namespace ej::measure
