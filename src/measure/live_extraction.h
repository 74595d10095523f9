#pragma once

#include "measure/metric_spec.h"
#include "measure/readers.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// Line-based metrics (regex, kv) of stdout and stderr, read while the benchmark runs: its output
// is fed here as it arrives, so a stream of any size is read once, in bounded memory, with no
// copy on disk. The capture then only has to keep what the journal stores.
class LiveExtraction {
public:
  // metrics must outlive this.
  explicit LiveExtraction(const std::vector<MetricSpec>& metrics);

  // Whether spec is read this way: a line-based reader of stdout or stderr.
  static bool reads_live(const MetricSpec& spec);

  // Fresh scanners for a repeat that is measured; a warmup is fed to none (stop()).
  void start_repeat();
  void stop();
  // What the program printed, in pieces as read from its pipes.
  void feed(bool from_stderr, std::string_view data);
  // After the program ended: its last line, if it did not end with '\n'.
  void end_repeat();

  // The scanner that read spec's stream during this repeat, nullptr when spec is not read live.
  // Throws the ej::Error a scanner met while it was fed (a value that is not a number).
  LineScanner* scanner_for(const MetricSpec& spec);

private:
  struct Scanner {
    const MetricSpec* spec;
    std::unique_ptr<LineScanner> scanner;
    std::string error; // what reading threw, kept for scanner_for: nothing may throw into the run
  };
  struct Stream {
    std::string partial; // an unfinished line
    std::vector<Scanner> scanners;
  };
  void deliver(Stream& stream, std::string_view lines);

  const std::vector<MetricSpec>& m_metrics;
  Stream m_out;
  Stream m_err;
  bool m_active = false;
};

} // namespace ej::measure
