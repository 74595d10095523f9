#pragma once

#include "run/process.h"

#include <fmt/format.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

// The small POSIX sh script ej uploads to a host and runs each remote process through. It enters
// the working directory, checks that the program exists there, measures the wall time and the CPU
// time on the host (never across the network), and runs the benchmark in a process group of its
// own (setsid) with the run's marker EJ_GUARD=<guard> in its environment: what the benchmark leaves
// in its group is stopped after it, and when its stdin closes (the ssh channel's, which closes when
// the connection drops, when ej dies or on Ctrl-C) the wrapper ends the benchmark's group, its own
// and every process that holds the marker, setsid escapers included. Its last word is a trailer on
// stderr: "\n<nonce> <exit status> <wall ns> <group left 0|1>\n" and the two lines of `times`.
namespace ej::remote {

const std::string& wrapper_script();
// "ej-wrapper-<hash of the script>.sh": a new script never runs under an old one's name.
std::string wrapper_file_name();

// The remote shell line that runs `words` (an argv, env assignments first) through the wrapper.
// guard: the run's marker value; check: the program to look up before running (empty for a shell
// string).
std::string wrapper_command(const std::string& wrapper_path, const std::string& nonce,
                            const std::string& guard, const std::string& cwd, const std::string& check,
                            const std::vector<std::string>& words);
// The remote shell line that stops every process holding the run's marker and prints how many
// there were: what the benchmark left running outside its group, at the end of the run.
std::string leftovers_command(const std::string& wrapper_path, const std::string& guard);

struct Trailer {
  int status = 0;
  std::optional<double> wall_s; // nullopt when the host's date has no nanoseconds
  double user_s = 0;            // of the benchmark's process, and its children it waited for
  double sys_s = 0;
  bool group_left = false; // processes of its group outlived it (stopped by the wrapper)
};

// Finds the trailer at the end of a capture and removes it; nullopt when the process ended
// without one (the connection was lost, or the wrapper was killed).
std::optional<Trailer> take_trailer(run::Capture& err, const std::string& nonce);

// Passes a stream's chunks on as they come, holding back only what may be the start of the
// trailer, so that neither the live echo nor the live extraction ever sees it.
class TrailerFilter {
public:
  using Sink = std::function<void(run::Stream, std::string_view)>;
  TrailerFilter(std::string nonce, Sink sink) : m_marker(fmt::format("\n{}", nonce)), m_sink(std::move(sink))
  {
  }
  void feed(run::Stream stream, std::string_view chunk);
  // At the end of a process: what was held back and is no trailer goes on; then ready for the next.
  void finish();

private:
  std::string m_marker;
  Sink m_sink;
  std::string m_held;
  bool m_in_trailer = false;
};

} // namespace ej::remote
