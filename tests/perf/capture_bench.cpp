// Throughput of run_process capturing a child that writes 1 GiB to stdout, against the same data
// through `cat` into /dev/null, and the peak memory of this process while doing it.
#include "run/process.h"
#include "util/time.h"

#include <fmt/format.h>

#include <sys/resource.h>

namespace {

double seconds(const ej::run::ProcessSpec& spec, std::uint64_t* captured)
{
  const std::int64_t start = ej::util::monotonic_ns();
  const ej::run::ProcessResult result = ej::run::run_process(spec);
  const double elapsed = static_cast<double>(ej::util::monotonic_ns() - start) / 1e9;
  if (!result.succeeded()) {
    fmt::print(stderr, "benchmark command failed: {}\n", ej::run::describe(result));
  }
  if (captured != nullptr) {
    *captured = result.out.total_bytes;
  }
  return elapsed;
}

} // namespace

int main()
{
  constexpr double k_gib = 1024.0 * 1024.0 * 1024.0;
  ej::run::ProcessSpec capture;
  capture.argv = {"head", "-c", "1G", "/dev/zero"};
  ej::run::ProcessSpec baseline;
  baseline.shell = "head -c 1G /dev/zero | cat > /dev/null";

  double best_capture = 1e9;
  double best_cat = 1e9;
  std::uint64_t bytes = 0;
  for (int i = 0; i < 3; ++i) {
    best_capture = std::min(best_capture, seconds(capture, &bytes));
    best_cat = std::min(best_cat, seconds(baseline, nullptr));
  }
  rusage self{};
  ::getrusage(RUSAGE_SELF, &self);
  fmt::print("captured bytes          {}\n", bytes);
  fmt::print("run_process capture     {:8.3f} s  {:7.2f} GiB/s (best of 3)\n", best_capture,
             static_cast<double>(bytes) / k_gib / best_capture);
  fmt::print("head | cat > /dev/null  {:8.3f} s  {:7.2f} GiB/s (best of 3)\n", best_cat, 1.0 / best_cat);
  fmt::print("ratio capture/cat       {:8.2f} (throughput; >= 0.5 required)\n", best_cat / best_capture);
  fmt::print("peak RSS of this bench  {:8.1f} MiB\n", static_cast<double>(self.ru_maxrss) / 1024.0);
  return 0;
}
