// ej run against benchmarks that misbehave, and an ej that is stopped mid-run: each ends in a
// clear message and a run record that says what happened, and nothing recorded is lost.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/skip.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// Registers a one-repeat benchmark running `script` (written to bench.sh), runs it, and returns
// what ej said; the run must not succeed.
CommandResult failing_run(const EjRepo& repo, const std::string& script,
                          const std::vector<std::string>& options = {})
{
  write_text(repo.path() / "bench.sh", script);
  std::vector<std::string> args{"bench", "add", "b", "--repeat", "1"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"--", "sh", "bench.sh"});
  repo.ok(args);
  auto result = repo.ej({"run", "b", "--quiet"});
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 1);
  return result;
}

// Another writer: holds the journal's write lock for a while.
void hold_journal(const EjRepo& repo, std::chrono::milliseconds how_long)
{
  sqlite3* holder = nullptr;
  REQUIRE(sqlite3_open(repo.db_path().c_str(), &holder) == SQLITE_OK);
  // ej may be writing at that moment: wait for it rather than fail the test.
  sqlite3_busy_timeout(holder, 5000);
  REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  std::this_thread::sleep_for(how_long);
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
}

int read_pid(const std::filesystem::path& path)
{
  REQUIRE(wait_for_file(path, 10));
  return std::stoi(read_text(path));
}

} // namespace

TEST_CASE("a benchmark command that does not exist or is not executable fails the run with the reason")
{
  EjRepo repo;
  repo.ok({"bench", "add", "missing", "--repeat", "3", "--", "./no-such-program", "--flag"});
  const auto missing = repo.ej({"run", "missing", "--quiet"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("run #1 failed") && Catch::Contains("./no-such-program") &&
                              Catch::Contains("No such file or directory"));
  auto run = show_run(repo, 1);
  CHECK(run["status"] == "failed");
  CHECK(run["repeats"].size() == 1); // it stops at the first failure
  CHECK(run["repeats"][0]["ending"] == "spawn-failed");

  write_text(repo.path() / "plain.sh", "echo hi\n");
  repo.ok({"bench", "add", "not-exec", "--repeat", "1", "--", "./plain.sh"});
  const auto not_exec = repo.ej({"run", "not-exec", "--quiet"});
  CHECK(not_exec.exit_code == 1);
  CHECK_THAT(not_exec.err, Catch::Contains("Permission denied") && Catch::Contains("chmod +x"));
  run = show_run(repo, 2);
  CHECK(run["status"] == "failed");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("Permission denied"));

  repo.ok({"bench", "add", "no-dir", "--repeat", "1", "--cwd", "not/there", "--", "true"});
  const auto no_dir = repo.ej({"run", "no-dir", "--quiet"});
  CHECK(no_dir.exit_code == 1);
  CHECK_THAT(no_dir.err, Catch::Contains("not/there") && Catch::Contains("--cwd"));
  CHECK(show_run(repo, 3)["status"] == "failed");
}

TEST_CASE("a failing warmup fails the run before any measured repeat")
{
  EjRepo repo;
  const auto result = failing_run(repo, "exit 4\n", {"--warmup", "2"});
  CHECK_THAT(result.err, Catch::Contains("warmup 1 exited with 4"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "failed");
  CHECK(run["repeats"].size() == 1);
  CHECK(measured_repeats(run) == 0);
}

TEST_CASE("a benchmark that reads its input gets end of file instead of hanging")
{
  EjRepo repo;
  repo.ok({"bench", "add", "reader", "--repeat", "1", "--timeout", "20", "--metric", "v=regex:v=([0-9]+)",
           "--shell", "cat > /dev/null; echo v=1"});
  // ej's own stdin is a FIFO that the shell keeps open: it never ends, so only a benchmark whose
  // stdin is not ej's can finish.
  const auto result = run_command(
      {"sh", "-c", "mkfifo in.fifo; exec 3<>in.fifo; \"$0\" run reader --quiet < in.fifo", EJ_BINARY},
      {repo.path(), {}, {}});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(samples_of(show_run(repo, 1), "v") == std::vector<double>{1});
}

TEST_CASE("a benchmark that exits non-zero fails the run, with the exit code and its last stderr lines")
{
  EjRepo repo;
  const auto result = failing_run(repo, "echo 'out of memory on device 0' >&2\nexit 3\n");
  CHECK_THAT(result.err, Catch::Contains("exited with 3") && Catch::Contains("out of memory on device 0"));
  const auto run = show_run(repo, 1, true);
  CHECK(run["status"] == "failed");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("exited with 3"));
  CHECK(run["repeats"][0]["exit_code"] == 3);
  CHECK(run["stderr"] == "out of memory on device 0\n");
}

TEST_CASE("a benchmark killed by a signal fails the run, naming the signal")
{
  EjRepo repo;
  const auto result = failing_run(repo, "kill -SEGV $$\n");
  CHECK_THAT(result.err, Catch::Contains("killed by SIGSEGV"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "failed");
  CHECK(run["repeats"][0]["ending"] == "signaled");
  CHECK(run["repeats"][0]["signal"] == SIGSEGV);
}

TEST_CASE("a benchmark that hangs past its timeout is stopped with all its processes, and the run is timeout")
{
  EjRepo repo;
  // Long enough for the shell to write its child's pid on a loaded machine.
  const auto result = failing_run(repo, "sleep 60 &\necho $! > child.pid\nsleep 60\n", {"--timeout", "2"});
  CHECK_THAT(result.err, Catch::Contains("run #1 timeout") && Catch::Contains("timed out after"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "timeout");
  CHECK(run["repeats"][0]["ending"] == "timed-out");
  const int child = read_pid(repo.path() / "child.pid");
  CHECK(wait_gone(child, 3));
}

TEST_CASE("a benchmark that prints nothing is measured by wall time, and a metric that needs output says so")
{
  EjRepo repo;
  repo.ok({"bench", "add", "silent", "--repeat", "2", "--shell", "true"});
  repo.ok({"run", "silent", "--quiet"});
  auto run = show_run(repo, 1, true);
  CHECK(run["status"] == "finished");
  CHECK(samples_of(run, "wall_s").size() == 2);
  CHECK(run["stdout"] == "");

  repo.ok({"bench", "add", "silent-metric", "--repeat", "2", "--metric", "v=regex:v=([0-9]+)", "--shell",
           "true"});
  const auto result = repo.ej({"run", "silent-metric", "--quiet"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("extract-error") && Catch::Contains("the output was empty"));
  run = show_run(repo, 2);
  CHECK(run["status"] == "extract-error");
  CHECK(samples_of(run, "v").empty());
}

TEST_CASE("a benchmark printing 100 MB keeps a bounded capture, records the bytes cut, and ej stays small")
{
  EjRepo repo;
  repo.ok({"bench", "add", "flood", "--repeat", "1", "--metric", "v=regex:v=([0-9]+)", "--shell",
           "echo v=5; head -c 100000000 /dev/zero | tr '\\0' x; echo; echo the end"});
  const auto result = repo.ej({"run", "flood", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.peak_rss_kb > 0);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's quarantine keeps freed buffers resident: the bound holds for real builds.
  WARN("peak RSS under AddressSanitizer: " << result.peak_rss_kb << " kB (not checked)");
#else
  CHECK(result.peak_rss_kb < 64 * 1024);
#endif

  const auto shown = repo.ej({"show", "run", "1", "--json", "--output"});
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.size() < 4 * 1024 * 1024);
  const auto run = json::parse(shown.out);
  CHECK(samples_of(run, "v") == std::vector<double>{5});
  CHECK(run["outputs"]["stdout_bytes"] == 100000000 + 4 + 9);
  CHECK(run["outputs"]["stdout_cut_bytes"].get<std::int64_t>() > 99000000);
  const auto out = run["stdout"].get<std::string>();
  CHECK(out.rfind("v=5\n", 0) == 0);
  CHECK_THAT(out, Catch::EndsWith("the end\n") && Catch::Contains("bytes cut"));
  CHECK_THAT(repo.ok({"show", "run", "1", "--output"}), Catch::Contains("bytes cut from the middle"));
}

TEST_CASE("garbage where a JSON extractor expects JSON ends the run as extract-error with the reason")
{
  EjRepo repo;
  const auto result = failing_run(repo, "echo '{\"a\": [1, 2,'\n", {"--metric", "v=json:a"});
  CHECK_THAT(result.err, Catch::Contains("extract-error") && Catch::Contains("not valid JSON"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "extract-error");
  CHECK_THAT(run["reason"].get<std::string>(),
             Catch::Contains("metric 'v'") && Catch::Contains("not valid JSON"));

  write_text(repo.path() / "bench.sh", "printf '\\377\\376 binary \\001 noise'\n");
  const auto binary = repo.ej({"run", "b", "--quiet"});
  CHECK(binary.exit_code == 1);
  CHECK(show_run(repo, 2)["status"] == "extract-error");

  repo.ok({"bench", "add", "missing-file", "--repeat", "1", "--metric", "v=json:a@never-written.json",
           "--shell", "true"});
  const auto no_file = repo.ej({"run", "missing-file", "--quiet"});
  CHECK(no_file.exit_code == 1);
  CHECK_THAT(no_file.err, Catch::Contains("never-written.json"));
}

TEST_CASE("a metric pattern that matches nothing fails the run and shows the last lines of the output")
{
  EjRepo repo;
  const auto result =
      failing_run(repo, "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo \"progress line $i\"; done\n",
                  {"--metric", "t=regex:time_ms=([0-9.]+)"});
  CHECK_THAT(result.err, Catch::Contains("matched nothing") && Catch::Contains("progress line 12") &&
                             Catch::Contains("progress line 11"));
  CHECK_THAT(result.err, !Catch::Contains("progress line 1\n"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "extract-error");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("progress line 12"));
}

TEST_CASE(
    "an ej killed with SIGKILL mid-run leaves a run the next command marks interrupted, with its samples")
{
  EjRepo repo;
  repo.ok({"bench", "add", "long", "--repeat", "100", "--metric", "n=regex:n=([0-9]+)", "--shell",
           "echo x >> count.txt; echo n=$(wc -l < count.txt); sleep 0.25"});
  const auto pid = start_command({EJ_BINARY, "run", "long", "--quiet"}, {repo.path(), {}, {}});
  // Samples are committed about once a second: wait for more than that.
  const auto count_file = repo.path() / "count.txt";
  REQUIRE(wait_for_file(count_file, 10));
  while (read_text(count_file).size() < 2 * 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGKILL);
  CHECK(wait_command(pid) == 128 + SIGKILL);

  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0]["status"] == "interrupted");
  CHECK_THAT(runs[0]["reason"].get<std::string>(), Catch::Contains("stopped without finishing"));
  const auto samples = samples_of(runs[0], "n");
  CHECK(samples.size() >= 3);
  CHECK(samples.front() == 1);
  CHECK(repo.ok({"fsck"}).find("is ok") != std::string::npos);
}

TEST_CASE(
    "SIGINT or SIGTERM to ej mid-run stops the benchmark's processes, records interrupted and exits 128+N")
{
  for (const int signal : {SIGINT, SIGTERM}) {
    EjRepo repo;
    INFO("signal " << signal);
    repo.ok({"bench", "add", "long", "--repeat", "50", "--metric", "n=regex:n=([0-9]+)", "--shell",
             "echo x >> count.txt; echo n=$(wc -l < count.txt); if [ $(wc -l < count.txt) -ge 3 ]; then "
             "sleep 60 & echo $! > child.pid; wait; fi"});
    // exec keeps the pid: the signal goes to ej itself, whose stderr lands in ej.err.
    const auto pid = start_command({"sh", "-c", "exec \"$0\" run long --quiet 2> ej.err", EJ_BINARY},
                                   {repo.path(), {}, {}});
    const int child = read_pid(repo.path() / "child.pid");
    ::kill(pid, signal);
    CHECK(wait_command(pid) == 128 + signal);
    CHECK(wait_gone(child, 3));
    CHECK_THAT(
        read_text(repo.path() / "ej.err"),
        Catch::Contains("run #1 interrupted by " + std::string(signal == SIGINT ? "SIGINT" : "SIGTERM")));

    const auto run = show_run(repo, 1);
    CHECK(run["status"] == "interrupted");
    CHECK(samples_of(run, "n") == std::vector<double>{1, 2});
    CHECK(run["repeats"].size() == 3);
  }
}

TEST_CASE("the CUDA example on a machine without a GPU records a failed run with its no-device message")
{
  const std::filesystem::path example = EJ_BUILD_DIR "/examples/cuda/ej-example-cuda";
  if (!std::filesystem::exists(example)) {
    EJ_SKIP_NOT_APPLICABLE("ej-example-cuda is not built (no CUDA compiler)");
  }
  if (std::filesystem::exists("/dev/nvidia0")) {
    EJ_SKIP_NOT_APPLICABLE("this machine has a GPU");
  }
  EjRepo repo;
  repo.ok({"bench", "add", "cuda", "--repeat", "2", "--metric", "t=regex:time_ms=([0-9.]+)", "--",
           example.string(), "--variant", "fused"});
  const auto result = repo.ej({"run", "cuda", "--quiet"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("exited with 3") && Catch::Contains("no CUDA device"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "failed");
  CHECK_THAT(run["reason"].get<std::string>(),
             Catch::Contains("exited with 3") && Catch::Contains("no CUDA device"));
}

TEST_CASE("a fast benchmark whose repeat turns slow does not keep other writers of the journal waiting")
{
  EjRepo repo;
  // Quick repeats share one open transaction; the 20th sleeps, and while it does another ej must
  // be able to write well within its (here shortened) wait for the lock.
  repo.ok({"bench", "add", "turns-slow", "--repeat", "25", "--shell",
           "echo x >> count.txt; if [ $(wc -l < count.txt) -eq 20 ]; then echo sleeping > slow.flag; sleep "
           "2; fi"});
  const auto pid = start_command({EJ_BINARY, "run", "turns-slow", "--quiet"}, {repo.path(), {}, {}});
  REQUIRE(wait_for_file(repo.path() / "slow.flag", 20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto other = repo.ej({"plan", "new", "p", "--title", "written while the benchmark sleeps"},
                             {{"EJ_BUSY_TIMEOUT_MS", "500"}});
  INFO("stderr: " << other.err);
  CHECK(other.exit_code == 0);
  CHECK(wait_command(pid) == 0);

  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  CHECK(run["repeats"].size() == 25);
}

TEST_CASE("a repeat's wall time never includes ej's own writes to the journal")
{
  EjRepo repo;
  // Repeats of 10 ms for about 3 s: the samples are written once a second. Another writer holds
  // the journal for the first 3 s, so the first of those writes waits 2 s or more; were it made
  // while a child ran, that child would be reaped late and its wall time would show the wait.
  repo.ok({"bench", "add", "quick", "--repeat", "250", "--shell", "echo x >> count.txt; sleep 0.01"});
  const auto pid = start_command({EJ_BINARY, "run", "quick", "--quiet"}, {repo.path(), {}, {}});
  REQUIRE(wait_for_file(repo.path() / "count.txt", 20));
  hold_journal(repo, std::chrono::milliseconds(3000));
  CHECK(wait_command(pid) == 0);

  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  const auto walls = samples_of(run, "wall_s");
  REQUIRE(walls.size() == 250);
  // The held write waits 2 s or more, some two hundred repeats' worth: a repeat that held it
  // stands out at twice the bound, while a 10 ms repeat, sanitized on a loaded machine, stays far
  // below it.
  auto sorted = walls;
  std::sort(sorted.begin(), sorted.end());
  INFO("median " << sorted[sorted.size() / 2] << " s, slowest " << sorted.back() << " s");
  CHECK(sorted.back() < 1.0);
}

TEST_CASE("a journal held by another writer for longer than ej waits does not cost a run its repeats")
{
  EjRepo repo;
  // ej waits 300 ms for the journal here; another writer holds it for the run's first 1.6 s. The
  // write due after a second is refused: the run goes on, says so once, and writes it all later.
  // 300 repeats of 10 ms or more outlast the hold by far, however fast they are.
  repo.ok({"bench", "add", "quick", "--repeat", "300", "--shell", "echo x >> count.txt; sleep 0.01"});
  const auto pid = start_command({"sh", "-c", "exec \"$0\" run quick --quiet 2> ej.err", EJ_BINARY},
                                 {repo.path(), {{"EJ_BUSY_TIMEOUT_MS", "300"}}, {}});
  REQUIRE(wait_for_file(repo.path() / "count.txt", 20));
  hold_journal(repo, std::chrono::milliseconds(1600));
  CHECK(wait_command(pid) == 0);

  const auto err = read_text(repo.path() / "ej.err");
  CHECK_THAT(err, Catch::Contains("cannot be written to the journal yet") && Catch::Contains("locked"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  CHECK(run["repeats"].size() == 300);
  CHECK(samples_of(run, "wall_s").size() == 300);
}
