// The cost of reading the GPUs during every repeat, through the real binary: `ej run` of a 10 ms
// benchmark (`sleep 0.01`) whose GPUs are the NVML test double (two GPUs), with the sampler on
// (every 50 ms, the default, and every 10 ms) against the same run with it off
// (--gpu-sample-ms 0); and on a machine without GPUs (no NVML, no nvidia-smi) against the same.
// The cost of a repeat is (time of 101 repeats - time of 1) / 100, so that ej's start-up is left
// out. Goal: at most 1% of the repeat's wall time with a GPU, nothing without one. Prints
// figures; asserts nothing.
#include "support/command.h"
#include "support/fake_gpus.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

using ej::test::measure_once;

int main()
{
  ej::test::TempDir dir("ej-perf-gpu");
  ej::test::make_git_repo(dir.path());
  const std::string ej = EJ_BINARY;
  ej::test::run_command({ej, "init"}, {dir.path(), {}, {}});
  ej::test::run_command({ej, "bench", "add", "ten", "--", "sleep", "0.01"}, {dir.path(), {}, {}});

  const std::string fake = std::string("EJ_NVML_LIBRARY=") + ej::test::fake_nvml_library();
  const std::string none = "EJ_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1";
  const std::string locks = "EJ_GPU_LOCK_DIR=" + (dir.path() / "locks").string();
  struct Variant {
    std::string label;
    std::vector<std::string> env;
    std::string sample_ms;
  };
  const std::vector<Variant> variants = {
      {"GPU (test double), sampling off", {fake, locks}, "0"},
      {"GPU (test double), every 50 ms ", {fake, locks}, "50"},
      {"GPU (test double), every 10 ms ", {fake, locks}, "10"},
      {"no GPU, sampling off          ", {none, locks, "PATH=/usr/bin:/bin"}, "0"},
      {"no GPU, default (50 ms)       ", {none, locks, "PATH=/usr/bin:/bin"}, "50"},
  };
  const auto command = [&](const Variant& v, int repeats) {
    std::vector<std::string> argv = {"env"};
    argv.insert(argv.end(), v.env.begin(), v.env.end());
    argv.insert(argv.end(), {ej, "run", "ten", "--quiet", "--repeat", std::to_string(repeats),
                             "--gpu-sample-ms", v.sample_ms});
    return argv;
  };
  // Round after round, every variant in turn: a busy moment of the machine falls on all of them.
  constexpr int k_rounds = 7;
  std::vector<std::vector<double>> marginal(variants.size());
  for (int round = 0; round < k_rounds; ++round) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const auto many = measure_once(command(variants[i], 101), dir.path());
      const auto one = measure_once(command(variants[i], 1), dir.path());
      if (many.exit_code != 0 || one.exit_code != 0) {
        fmt::print("{}: ej run failed (exit {} / {})\n", variants[i].label, many.exit_code, one.exit_code);
      }
      marginal[i].push_back((many.seconds - one.seconds) / 100 * 1000);
    }
  }
  const auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  fmt::print("wall time per repeat of a 10 ms benchmark (medians of {} interleaved rounds):\n", k_rounds);
  std::vector<double> ms;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    ms.push_back(median(marginal[i]));
  }
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const double reference = i < 3 ? ms[0] : ms[3];
    fmt::print("  {}  {:7.3f} ms per repeat   ratio to sampling off {:.4f}\n", variants[i].label, ms[i],
               ms[i] / reference);
  }
  const double worst_gpu = std::max(ms[1], ms[2]) / ms[0];
  fmt::print("  goal: sampling costs <= 1% of a 10 ms repeat with a GPU: {} (worst ratio {:.4f})\n",
             worst_gpu <= 1.01 ? "met" : "NOT MET", worst_gpu);
  fmt::print("  goal: nothing without a GPU: ratio {:.4f}\n", ms[4] / ms[3]);
  return 0;
}
