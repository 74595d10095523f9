#include "support/timing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

namespace ej::test {

Measured measure_once(const std::vector<std::string>& argv, const std::filesystem::path& cwd)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (auto& arg : args) {
    c_args.push_back(arg.data());
  }
  c_args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, c_args[0], &actions, nullptr, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot start " + argv[0]);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Measured out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.peak_rss_kb = usage.ru_maxrss;
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

namespace {

struct Samples {
  std::vector<double> times_ms;
  Timing timing;

  void add(const Measured& measured)
  {
    times_ms.push_back(measured.seconds * 1000.0);
    timing.peak_rss_kb = std::max(timing.peak_rss_kb, measured.peak_rss_kb);
    if (measured.exit_code != 0) {
      ++timing.failures;
    }
  }

  Timing summary()
  {
    std::sort(times_ms.begin(), times_ms.end());
    timing.median_ms = times_ms[times_ms.size() / 2];
    timing.min_ms = times_ms.front();
    timing.max_ms = times_ms.back();
    return timing;
  }
};

} // namespace

Timing time_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd, int runs)
{
  Samples samples;
  for (int run = 0; run < runs; ++run) {
    samples.add(measure_once(argv, cwd));
  }
  return samples.summary();
}

std::vector<Timing> time_interleaved(const std::vector<std::vector<std::string>>& commands,
                                     const std::filesystem::path& cwd, int rounds)
{
  std::vector<Samples> samples(commands.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < commands.size(); ++i) {
      samples[i].add(measure_once(commands[i], cwd));
    }
  }
  std::vector<Timing> timings;
  for (auto& each : samples) {
    timings.push_back(each.summary());
  }
  return timings;
}

void print_timing(const std::string& label, const Timing& timing, double goal_ms, double goal_mb)
{
  const double mb = static_cast<double>(timing.peak_rss_kb) / 1024.0;
  std::printf("%-28s median %7.2f ms (min %7.2f, max %7.2f)  peak RSS %6.1f MB", label.c_str(), timing.median_ms,
              timing.min_ms, timing.max_ms, mb);
  if (goal_ms > 0) {
    std::printf("  goal < %.0f ms: %s, < %.0f MB: %s", goal_ms, timing.median_ms < goal_ms ? "met" : "NOT MET", goal_mb,
                mb < goal_mb ? "met" : "NOT MET");
  }
  if (timing.failures > 0) {
    std::printf("  (%d runs failed)", timing.failures);
  }
  std::printf("\n");
}

} // namespace ej::test

namespace ej::test {

void print_ratio(const std::string& label, const Timing& timing, const std::string& reference_label,
                 const Timing& reference, double goal_ratio)
{
  print_timing(label, timing, 0, 0);
  const double ratio = timing.median_ms / reference.median_ms;
  if (goal_ratio <= 0) { // a figure to know, with no goal
    std::printf("%-28s %5.2fx %s\n", "", ratio, reference_label.c_str());
    return;
  }
  std::printf("%-28s %5.2fx %s (goal <= %.1fx: %s)\n", "", ratio, reference_label.c_str(), goal_ratio,
              ratio <= goal_ratio ? "met" : "NOT MET");
}

} // namespace ej::test
