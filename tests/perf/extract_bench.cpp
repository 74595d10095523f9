// Extraction from a 1 GiB output: `ej bench test` reading a saved log with a regex and with a kv
// metric, and `ej run` of a benchmark printing the same log (capture, temporary copy, extraction,
// journal), against `cat` of the same file into /dev/null, with the peak memory of each ej.
// Goals (issue 10): at least half of cat's throughput, peak RSS under 64 MB.
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace {

constexpr std::uint64_t k_size = std::uint64_t{1} << 30;

// A training-style log: mostly step lines, now and then the lines the metrics read.
void write_log(const std::filesystem::path& path)
{
  std::ofstream out(path, std::ios::binary);
  std::string block;
  for (int i = 0; i < 1000; ++i) {
    block += fmt::format(
        "[rank 0] step {:7d}: loss 2.{:04d} lr 3.0e-04 grad_norm 0.{:03d} tokens 4096 elapsed {} ms\n", i,
        (i * 37) % 10000, i % 1000, 100 + i % 50);
  }
  block += "verify: 12.5 ms\nOutput token throughput (tok/s): 1,234.5\n";
  std::uint64_t written = 0;
  while (written + block.size() <= k_size) {
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    written += block.size();
  }
  out << std::string(k_size - written, '\n');
}

struct Figure {
  double seconds = 1e9;
  long rss_kb = 0;
  bool failed = false;
};

Figure best_of(int runs, const std::vector<std::string>& argv, const std::filesystem::path& cwd)
{
  Figure figure;
  for (int i = 0; i < runs; ++i) {
    const auto measured = ej::test::measure_once(argv, cwd);
    figure.seconds = std::min(figure.seconds, measured.seconds);
    figure.rss_kb = std::max(figure.rss_kb, measured.peak_rss_kb);
    figure.failed = figure.failed || measured.exit_code != 0;
  }
  return figure;
}

void print(const std::string& label, const Figure& figure, const Figure& cat)
{
  fmt::print(
      "{:<34} {:7.3f} s  {:6.2f} GiB/s  {:5.2f}x cat's throughput (>= 0.5)  peak RSS {:6.1f} MB (< 64){}\n",
      label, figure.seconds, 1.0 / figure.seconds, cat.seconds / figure.seconds,
      static_cast<double>(figure.rss_kb) / 1024.0, figure.failed ? "  FAILED" : "");
}

} // namespace

int main()
{
  ej::test::TempDir dir("ej-perf-extract", false);
  const auto log = dir / "train.log";
  write_log(log);
  const std::string ej = EJ_BINARY;
  const auto cat = best_of(3, {"sh", "-c", "cat \"$0\" > /dev/null", log.string()}, dir.path());
  fmt::print("{:<34} {:7.3f} s  {:6.2f} GiB/s  (the reference)\n", "cat > /dev/null", cat.seconds,
             1.0 / cat.seconds);
  print(
      "ej bench test, regex",
      best_of(3, {ej, "bench", "test", "--metric", "v=regex:verify: ([0-9.]+) ms", log.string()}, dir.path()),
      cat);
  print("ej bench test, kv",
        best_of(3, {ej, "bench", "test", "--metric", "tok=kv:Output token throughput (tok/s)", log.string()},
                dir.path()),
        cat);

  // ej run: the log comes through a pipe, is kept in a temporary copy and read back.
  const auto repo = dir / "repo";
  std::filesystem::create_directories(repo);
  ej::test::make_git_repo(repo);
  const auto ok = [&](const std::vector<std::string>& args) {
    const auto result = ej::test::run_ej(repo, args);
    if (result.exit_code != 0) {
      fmt::print(stderr, "ej {} failed: {}\n", args.front(), result.err);
      std::exit(1);
    }
  };
  ok({"init"});
  ok({"bench", "add", "log", "--repeat", "1", "--metric", "v=regex:verify: ([0-9.]+) ms", "--metric",
      "tok=kv:Output token throughput (tok/s)", "--", "cat", log.string()});
  const auto pipe_cat = best_of(3, {"sh", "-c", "cat \"$0\" | cat > /dev/null", log.string()}, repo);
  fmt::print("{:<34} {:7.3f} s  {:6.2f} GiB/s  (the reference for ej run)\n", "cat | cat > /dev/null",
             pipe_cat.seconds, 1.0 / pipe_cat.seconds);
  print("ej run (both metrics)", best_of(3, {ej, "run", "log", "--quiet"}, repo), pipe_cat);
  return 0;
}
