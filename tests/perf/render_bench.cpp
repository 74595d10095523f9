// Builds a plan of 1,000 attempts and 10,000 runs (about 100,000 samples: 5 repeats of two metrics)
// in a scratch git repository, then times `ej plan render` of the real binary on it against the
// 200 ms goal. --large: ten times larger, 10,000 attempts, 100,000 runs and about 1,000,000
// samples in one plan, against 2 s and 256 MB (issue 16); then ej log, show and why on that plan
// against git log -n 50 (at most 1.5x). Prints figures; asserts nothing.
//
//   perf_render_bench [--attempts N | --large] [--runs-per-attempt N] [--runs N] [--keep]
#include "store/journal.h"
#include "support/command.h"
#include "support/listing_timings.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>

using namespace ej;
using nlohmann::json;

namespace {

const char* const k_statuses[] = {"adopted", "rejected", "blocked", "inconclusive", "superseded", "running"};

json repeat(int index, double value)
{
  return {{"idx", index},
          {"params", json::object()},
          {"warmup", false},
          {"ending", "exited"},
          {"exit_code", 0},
          {"signal", 0},
          {"wall_s", 0.5},
          {"user_s", 0.4},
          {"sys_s", 0.1},
          {"max_rss_kb", 10240},
          {"samples", json::array({{{"metric", "verify_ms"}, {"key", ""}, {"value", value}, {"unit", "ms"}},
                                   {{"metric", "wall_s"}, {"key", ""}, {"value", 0.5}, {"unit", "s"}}})}};
}

// Writes attempts and runs through the store (the same event path ej uses), 100 attempts a
// transaction. Every tenth run is imported; the others are measured runs of 5 repeats.
void generate(const std::filesystem::path& ej_dir, int attempts, int runs_per_attempt)
{
  auto journal = store::Journal::open(ej_dir);
  std::mt19937 random(7);
  std::normal_distribution<double> noise(0.0, 0.4);
  int run = 0;
  for (int first = 1; first <= attempts; first += 100) {
    journal.write([&](store::Writer& writer) {
      for (int number = first; number < first + 100 && number <= attempts; ++number) {
        json links = json::array();
        if (number > 1 && number % 7 == 0) {
          links.push_back({{"kind", "blocked-by"}, {"to", number - 1}});
        }
        writer.append("attempt.created",
                      {{"attempt", number},
                       {"plan", "big"},
                       {"title", "variant " + std::to_string(number) + " | NCCL_ALGO=Tree"},
                       {"hypothesis", "fewer launches, less *waiting* on the verify pass"},
                       {"command", "./bench --variant " + std::to_string(number)},
                       {"tags", {"nccl"}},
                       {"links", links},
                       {"git", {{"commit", "0123456789abcdef0123456789abcdef01234567"}}}});
        const double center = 15.0 + static_cast<double>(number % 17) * 0.1;
        for (int r = 0; r < runs_per_attempt; ++r) {
          ++run;
          if (run % 10 == 0) {
            json samples = json::array();
            for (int s = 0; s < 5; ++s) {
              samples.push_back(
                  {{"metric", "verify_ms"}, {"key", ""}, {"value", center + noise(random)}, {"unit", "ms"}});
            }
            writer.append("run.imported", {{"run", run},
                                           {"bench", "verify"},
                                           {"revision", 1},
                                           {"attempt", number},
                                           {"source", "lab notebook"},
                                           {"label", ""},
                                           {"samples", samples}});
            continue;
          }
          writer.append("run.started", {{"run", run},
                                        {"bench", "verify"},
                                        {"revision", 1},
                                        {"attempt", number},
                                        {"label", ""},
                                        {"git", {{"commit", "0123456789abcdef"}}},
                                        {"host", "h"}});
          json repeats = json::array();
          for (int s = 0; s < 5; ++s) {
            repeats.push_back(repeat(s, center + noise(random)));
          }
          writer.append("run.repeats", {{"run", run}, {"repeats", repeats}});
          writer.append("run.finished", {{"run", run}, {"status", "finished"}, {"reason", ""}});
          if (run == 1) {
            writer.append("baseline.pinned",
                          {{"plan", "big"}, {"bench", "verify"}, {"run", 1}, {"reason", ""}});
          }
        }
        writer.append("attempt.status", {{"attempt", number},
                                         {"status", k_statuses[number % std::size(k_statuses)]},
                                         {"reason", "measured: " + std::to_string(center) + " ms"},
                                         {"git", json::object()}});
        writer.append("attempt.note", {{"attempt", number}, {"text", "looked at the profile"}});
      }
    });
  }
  journal.write([&](store::Writer& writer) {
    writer.append("baseline.pinned", {{"plan", "big"},
                                      {"bench", "verify"},
                                      {"run", run / 2 + 1},
                                      {"reason", "CUDA 12.8 -> 13.0 upgrade"}});
  });
}

} // namespace

int main(int argc, char** argv)
{
  int attempts = 1000;
  int runs_per_attempt = 10;
  int runs = 7;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--attempts") == 0 && i + 1 < argc) {
      attempts = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs-per-attempt") == 0 && i + 1 < argc) {
      runs_per_attempt = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    } else if (std::strcmp(argv[i], "--large") == 0) {
      attempts = 10000;
      runs = 3;
    }
  }
  // The goals: 200 ms and 64 MB for 1,000 attempts; 2 s and 256 MB for ten times that.
  const bool large = attempts >= 10000;
  const double goal_ms = large ? 2000 : 200;
  const double goal_mb = large ? 256 : 64;
  const std::string ej = EJ_BINARY;
  test::TempDir dir("ej-perf-render");
  test::make_git_repo(dir.path());
  test::add_git_history(dir.path(), 60);
  // The plan and benchmark through the binary, so their definitions are exactly what ej writes.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {ej, "init"},
           {ej, "plan", "new", "big", "--title", "A big plan", "--goal", "verify under 15 ms", "--target",
            "verify_ms < 15"},
           {ej, "bench", "add", "verify", "--metric", "verify_ms=regex:verify_ms=([0-9.]+)", "--", "true"}}) {
    const auto result = test::run_command(args, {dir.path(), {}, ""});
    if (result.exit_code != 0) {
      std::fprintf(stderr, "set-up failed: %s\n", result.err.c_str());
      return 1;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  generate(dir / ".git" / "ej", attempts, runs_per_attempt);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "journal: 1 plan, %d attempts, %d runs (about %d samples), generated in %.1f s, %.1f MB on disk\n",
      attempts, attempts * runs_per_attempt, attempts * runs_per_attempt / 10 * (9 * 10 + 5), seconds,
      static_cast<double>(std::filesystem::file_size(dir / ".git" / "ej" / "journal.db")) / 1e6);
  std::printf("machine: %u cores; each figure is the median of %d runs of the real binary\n\n",
              std::thread::hardware_concurrency(), runs);

  test::print_timing("ej plan render big",
                     test::time_command({ej, "plan", "render", "big"}, dir.path(), runs), goal_ms, goal_mb);
  test::print_timing("ej plan render big --check",
                     test::time_command({ej, "plan", "render", "big", "--check"}, dir.path(), runs), goal_ms,
                     goal_mb);
  test::print_timing("ej report big --html big.html",
                     test::time_command({ej, "report", "big", "--html", "big.html"}, dir.path(), runs),
                     large ? 3000 : 300, goal_mb);
  std::printf("\ndocument: %.1f KB\n\n",
              static_cast<double>(std::filesystem::file_size(dir / "journal" / "big.md")) / 1e3);
  // Listing a few attempts of this plan reads a few rows, however many runs it has: the verdict
  // lines the renders above kept (store/verdict_cache.h).
  std::printf("with the verdict lines the render kept:\n");
  test::print_listing_timings(dir.path(), ej, attempts / 2, 21);
  // A new baseline changes every line of the plan: each names the baseline now. Pinned after every
  // run and pin the kept lines saw, it changes no verdict, and log reads them with that note worded
  // anew (store::LaterPins); one dated before them (a pin synced from a replica whose clock is
  // behind) changes which run may be the baseline then, and until the next render log judges each
  // attempt it shows (ten runs each), a figure to know.
  const auto pin = [&](const char* run, std::map<std::string, std::string> env) {
    const auto pinned = test::run_command({ej, "plan", "baseline", "big", "--run", run, "--reason", "perf"},
                                          {dir.path(), std::move(env), ""});
    if (pinned.exit_code != 0) {
      std::fprintf(stderr, "pinning a baseline failed: %s\n", pinned.err.c_str());
      std::exit(1);
    }
  };
  pin("2", {});
  // Interleaved with its reference: ej log keeps no verdict line, so every run reads or judges afresh.
  const auto after =
      test::time_interleaved({{"git", "log", "-n", "50"}, {ej, "log", "-n", "50"}}, dir.path(), 21);
  std::printf("\nafter a new baseline, before the next render:\n");
  test::print_timing("git log -n 50 (reference)", after[0], 0, 0);
  test::print_ratio("ej log -n 50 (kept lines)", after[1], "git log -n 50", after[0], 2.0);
  pin("3", {{"EJ_NOW", "2020-01-01T00:00:00Z"}});
  const auto judged =
      test::time_interleaved({{"git", "log", "-n", "50"}, {ej, "log", "-n", "50"}}, dir.path(), 21);
  std::printf("\nafter a baseline dated before the runs, before the next render:\n");
  test::print_timing("git log -n 50 (reference)", judged[0], 0, 0);
  test::print_ratio("ej log -n 50 (judged now)", judged[1], "git log -n 50", judged[0], 2.0);
  if (keep) {
    std::printf("kept %s\n", dir.path().c_str());
    std::exit(0); // skip TempDir's clean-up
  }
  return 0;
}
