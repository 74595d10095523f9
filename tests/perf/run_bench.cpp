// The cost of `ej run` itself, measured through the real binary in a scratch repository:
//   overhead: `ej run` of `true` with 200 repeats against `hyperfine -N --runs 200 true`
//             (wall time per repeat; goal: ej's at most hyperfine's);
//   capture:  a benchmark writing 1 GiB to stdout, against `head -c 1G /dev/zero | cat > /dev/null`
//             (goal: ej's throughput at least half of cat's, with ej's peak RSS under 64 MB).
// Prints figures; asserts nothing.
#include "support/command.h"
#include "support/temp_dir.h"

#include <fmt/format.h>

#include <chrono>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

namespace {

struct Measured {
  double seconds = 0;
  long peak_rss_kb = 0;
  int exit_code = -1;
};

Measured measure(const std::vector<std::string>& argv, const std::filesystem::path& cwd)
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
  Measured out;
  if (posix_spawnp(&pid, c_args[0], &actions, nullptr, c_args.data(), environ) != 0) {
    fmt::print("cannot start {}\n", argv[0]);
    return out;
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.peak_rss_kb = usage.ru_maxrss;
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

} // namespace

int main()
{
  ej::test::TempDir dir("ej-perf-run");
  ej::test::make_git_repo(dir.path());
  const std::string ej = EJ_BINARY;
  const auto run_ej = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv{ej};
    argv.insert(argv.end(), args.begin(), args.end());
    return ej::test::run_command(argv, {dir.path(), {}, {}});
  };
  run_ej({"init"});
  run_ej({"bench", "add", "true", "--repeat", "200", "--", "true"});
  run_ej({"bench", "add", "gib", "--repeat", "1", "--shell", "head -c 1G /dev/zero"});

  constexpr int k_rounds = 3;
  double best_ej = 1e9;
  double best_hyperfine = 1e9;
  for (int round = 0; round < k_rounds; ++round) {
    const auto ej_run = measure({ej, "run", "true", "--quiet"}, dir.path());
    const auto hyperfine = measure({"hyperfine", "-N", "--runs", "200", "--style", "none", "true"}, dir.path());
    if (ej_run.exit_code != 0 || hyperfine.exit_code != 0) {
      fmt::print("a run failed (ej exit {}, hyperfine exit {}); is hyperfine installed?\n", ej_run.exit_code,
                 hyperfine.exit_code);
    }
    best_ej = std::min(best_ej, ej_run.seconds);
    best_hyperfine = std::min(best_hyperfine, hyperfine.seconds);
  }
  fmt::print("overhead, 200 repeats of `true` (best of {}, whole command incl. start-up):\n", k_rounds);
  fmt::print("  ej run         {:7.3f} s  {:6.3f} ms per repeat\n", best_ej, best_ej / 200 * 1000);
  fmt::print("  hyperfine -N   {:7.3f} s  {:6.3f} ms per repeat\n", best_hyperfine, best_hyperfine / 200 * 1000);
  fmt::print("  goal: ej per repeat <= hyperfine per repeat: {}\n\n", best_ej <= best_hyperfine ? "met" : "NOT MET");

  double best_capture = 1e9;
  double best_cat = 1e9;
  long capture_rss = 0;
  for (int round = 0; round < k_rounds; ++round) {
    const auto capture = measure({ej, "run", "gib", "--quiet"}, dir.path());
    const auto cat = measure({"sh", "-c", "head -c 1G /dev/zero | cat > /dev/null"}, dir.path());
    best_capture = std::min(best_capture, capture.seconds);
    best_cat = std::min(best_cat, cat.seconds);
    capture_rss = std::max(capture_rss, capture.peak_rss_kb);
  }
  // ej's own peak: wait4 reports the largest of ej and its children (head is tiny).
  fmt::print("capture, 1 GiB on stdout (best of {}):\n", k_rounds);
  fmt::print("  ej run         {:7.3f} s  {:6.2f} GiB/s  peak RSS {:.1f} MB\n", best_capture, 1.0 / best_capture,
             static_cast<double>(capture_rss) / 1024.0);
  fmt::print("  head | cat     {:7.3f} s  {:6.2f} GiB/s\n", best_cat, 1.0 / best_cat);
  fmt::print("  goal: ratio >= 0.5 ({:.2f}: {}), peak RSS < 64 MB ({})\n", best_cat / best_capture,
             best_cat / best_capture >= 0.5 ? "met" : "NOT MET", capture_rss < 64 * 1024 ? "met" : "NOT MET");
  return 0;
}
