// Builds a journal with two runs of 10,000 samples each (through `ej record`, as a user would
// import them) and times `ej compare` of the real binary on them: opening the journal, reading
// 20,000 samples and the statistics together. Prints figures; asserts nothing.
//
//   perf_compare_cli_bench [--samples N] [--runs N] [--keep]
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>

using namespace ej;

namespace {

// "x=v1,v2,...": normal samples around `center` with 2% noise, 4 decimals (about 8 bytes each,
// so 10,000 values stay under the kernel's 128 KiB limit on one argument).
std::string samples(std::mt19937& random, int count, double center)
{
  std::normal_distribution<double> noise(center, center * 0.02);
  std::string out = "x=";
  char value[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(value, sizeof value, "%s%.4f", i == 0 ? "" : ",", noise(random));
    out += value;
  }
  return out;
}

void ej_ok(const std::filesystem::path& dir, const std::vector<std::string>& args)
{
  const auto result = test::run_ej(dir, args);
  if (result.exit_code != 0) {
    std::fprintf(stderr, "ej %s failed: %s\n", args.front().c_str(), result.err.c_str());
    std::exit(1);
  }
}

} // namespace

int main(int argc, char** argv)
{
  int count = 10000;
  int runs = 15;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
      count = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    }
  }
  test::TempDir dir("ej-perf-compare");
  test::make_git_repo(dir.path());
  ej_ok(dir.path(), {"init"});
  ej_ok(dir.path(), {"plan", "new", "p", "--title", "Compare at scale"});
  ej_ok(dir.path(), {"try", "reference", "--plan", "p"});
  ej_ok(dir.path(), {"try", "candidate", "--plan", "p"});
  ej_ok(dir.path(), {"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  std::mt19937 random(42);
  ej_ok(dir.path(), {"record", "1", "--bench", "b", "--samples", samples(random, count, 10.0)});
  ej_ok(dir.path(), {"record", "2", "--bench", "b", "--samples", samples(random, count, 9.9)});
  std::printf("journal: 2 runs of %d samples each, %.1f MB on disk\n", count,
              static_cast<double>(std::filesystem::file_size(dir / ".git" / "ej" / "journal.db")) / 1e6);
  std::printf("machine: %u cores; each figure is over %d runs of the real binary\n\n",
              std::thread::hardware_concurrency(), runs);

  const std::string ej = EJ_BINARY;
  test::print_timing("ej compare r1 r2", test::time_command({ej, "compare", "r1", "r2"}, dir.path(), runs),
                     50, 32);
  test::print_timing("ej compare r1 r2 --json",
                     test::time_command({ej, "compare", "r1", "r2", "--json"}, dir.path(), runs), 50, 32);
  test::print_timing("ej compare 1 2 (attempts)",
                     test::time_command({ej, "compare", "1", "2"}, dir.path(), runs), 50, 32);
  if (keep) {
    std::printf("\nkept %s\n", dir.path().c_str());
    std::exit(0); // skip TempDir's clean-up
  }
  return 0;
}
