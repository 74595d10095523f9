// Builds a journal of 10,000 attempts across 20 plans (about 100,000 events; --large: 100,000
// attempts, about 1,000,000 events) in a scratch git repository, then times the commands of the
// real ej binary on it against git on the same repository, interleaved in one run, and prints
// each ratio with its goal: start-up (ej --version, ej help, ej --help) at most 2x `git --version`; log,
// show and why NUMBER at most 1.5x `git log -n 50`; search and why TEXT at most 3x; try and
// status at most 2x `git commit --allow-empty -q`; then the time of ej fsck and ej reindex per
// 100,000 events. Prints figures; asserts nothing.
//
//   perf_journal_bench [--attempts N | --large] [--runs N] [--keep]
#include "generated_journal.h"
#include "store/journal.h"
#include "support/command.h"
#include "support/listing_timings.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>

using namespace ej;
using nlohmann::json;

namespace {

// Runs a command once and prints its time per 100,000 events.
void print_per_events(const std::string& label, const std::vector<std::string>& argv,
                      const std::filesystem::path& cwd, std::int64_t events)
{
  const auto measured = test::measure_once(argv, cwd);
  std::printf("%-28s %7.2f s for %lld events: %.2f s per 100,000 events, peak RSS %.1f MB%s\n", label.c_str(),
              measured.seconds, static_cast<long long>(events),
              measured.seconds / static_cast<double>(events) * 100000.0,
              static_cast<double>(measured.peak_rss_kb) / 1024.0,
              measured.exit_code == 0 ? "" : "  (failed)");
}

} // namespace

int main(int argc, char** argv)
{
  int attempts = 10000;
  int runs = 21;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--attempts") == 0 && i + 1 < argc) {
      attempts = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--large") == 0) {
      attempts = 100000;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    }
  }
  test::TempDir dir("ej-perf-journal");
  test::make_git_repo(dir.path());
  test::add_git_history(dir.path(), 60);
  const auto start = std::chrono::steady_clock::now();
  const auto events = perf::generate_journal(dir / ".git" / "ej", attempts);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("journal: %d attempts, 20 plans, %lld events, generated in %.1f s, %.1f MB on disk\n", attempts,
              static_cast<long long>(events), seconds,
              static_cast<double>(std::filesystem::file_size(dir / ".git" / "ej" / "journal.db")) / 1e6);
  std::printf("machine: %u cores; each figure is the median of %d interleaved runs of the real binary\n\n",
              std::thread::hardware_concurrency(), runs);

  const std::string ej = EJ_BINARY;
  const auto startup = test::time_interleaved(
      {{"git", "--version"}, {ej, "--version"}, {ej, "help"}, {ej, "--help"}}, dir.path(), runs);
  test::print_timing("git --version (reference)", startup[0], 0, 0);
  test::print_ratio("ej --version", startup[1], "git --version", startup[0], 2.0);
  test::print_ratio("ej help", startup[2], "git --version", startup[0], 2.0);
  test::print_ratio("ej --help", startup[3], "git --version", startup[0], 2.0);
  std::printf("\n");

  test::print_listing_timings(dir.path(), ej, attempts / 2, runs);
  std::printf("\n");

  const auto searches = test::time_interleaved(
      {{"git", "log", "-n", "50"}, {ej, "why", "NCCL_ALGO=Tree"}, {ej, "search", "PCIe latency"}}, dir.path(),
      runs);
  test::print_timing("git log -n 50 (reference)", searches[0], 0, 0);
  test::print_ratio("ej why NCCL_ALGO=Tree", searches[1], "git log -n 50", searches[0], 3.0);
  test::print_ratio("ej search \"PCIe latency\"", searches[2], "git log -n 50", searches[0], 3.0);
  std::printf("\n");

  const auto writes = test::time_interleaved({{"git", "commit", "--allow-empty", "-q", "-m", "perf"},
                                              {ej, "try", "perf attempt", "--plan", "plan-3"},
                                              {ej, "status", "1", "inconclusive", "--reason", "perf"}},
                                             dir.path(), runs);
  test::print_timing("git commit --allow-empty", writes[0], 0, 0);
  test::print_ratio("ej try", writes[1], "git commit --allow-empty -q", writes[0], 2.0);
  test::print_ratio("ej status", writes[2], "git commit --allow-empty -q", writes[0], 2.0);
  std::printf("\n");

  print_per_events("ej fsck", {ej, "fsck"}, dir.path(), events);
  print_per_events("ej reindex", {ej, "reindex"}, dir.path(), events);
  if (keep) {
    std::printf("\nkept %s\n", dir.path().c_str());
    std::exit(0); // skip TempDir's clean-up
  }
  return 0;
}
