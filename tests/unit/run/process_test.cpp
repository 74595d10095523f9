#include "run/guardian.h"
#include "run/process.h"
#include "run/signals.h"

#include "support/skip.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <iterator>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <utility>

using namespace ej::run;
using ej::test::TempDir;
using ej::test::write_text;

namespace {

ProcessSpec shell(const std::string& command)
{
  ProcessSpec spec;
  spec.shell = command;
  return spec;
}

// Alive and not a zombie: a killed orphan stays a zombie until init gets round to reaping it.
bool alive_now(pid_t pid)
{
  if (::kill(pid, 0) != 0) {
    return false;
  }
  const std::string stat = ej::test::read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto end_of_name = stat.rfind(')');
  return end_of_name != std::string::npos && stat.substr(end_of_name + 2, 1) != "Z";
}

// A killed process closes its files (our pipes reach end of file) a moment before it is a
// zombie: give it that moment.
bool process_alive(pid_t pid)
{
  for (int i = 0; i < 50 && alive_now(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return alive_now(pid);
}

bool has_pid(const std::filesystem::path& file)
{
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  return !error && size > 0;
}

// Waits for a script to write its pid to `file`: up to `seconds`, as a loaded machine may take.
bool wait_for_pid(const std::filesystem::path& file, int seconds)
{
  for (int i = 0; i < seconds * 100 && !has_pid(file); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return has_pid(file);
}

pid_t read_pid(const std::filesystem::path& file)
{
  REQUIRE(wait_for_pid(file, 10));
  return static_cast<pid_t>(std::stol(ej::test::read_text(file)));
}

} // namespace

TEST_CASE("a program that is not found is reported with what to do")
{
  ProcessSpec spec;
  spec.argv = {"ej-no-such-program-xyz", "--flag"};
  const ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::SpawnFailed);
  CHECK(result.exit_code == 127);
  CHECK(result.error == "cannot run 'ej-no-such-program-xyz': No such file or directory (check the path or "
                        "register with --shell)");
}

TEST_CASE("a file that is not executable is reported as such, relative to the working directory")
{
  TempDir dir;
  write_text(dir / "bench.sh", "#!/bin/sh\necho hi\n");
  ProcessSpec spec;
  spec.argv = {"./bench.sh"};
  spec.cwd = dir.path();
  ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::SpawnFailed);
  CHECK_THAT(result.error,
             Catch::StartsWith("cannot run './bench.sh': Permission denied (make it executable"));

  ::chmod((dir / "bench.sh").c_str(), 0755);
  result = run_process(spec);
  CHECK(result.ending == Ending::Exited);
  CHECK(result.out.text() == "hi\n");
}

TEST_CASE("a missing working directory is reported before spawning")
{
  ProcessSpec spec;
  spec.argv = {"true"};
  spec.cwd = "/nonexistent/ej-dir";
  const ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::SpawnFailed);
  CHECK_THAT(result.error, Catch::Contains("working directory '/nonexistent/ej-dir' does not exist"));
}

TEST_CASE("exit code, both streams, environment overrides and the working directory are captured")
{
  TempDir dir;
  ProcessSpec spec = shell("echo out-$EJ_TEST_VALUE; echo err >&2; pwd; read x || echo stdin-empty; exit 3");
  spec.env = {{"EJ_TEST_VALUE", "42"}};
  spec.cwd = dir.path();
  const ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::Exited);
  CHECK(result.exit_code == 3);
  CHECK_FALSE(result.succeeded());
  CHECK(result.out.text() ==
        "out-42\n" + std::filesystem::canonical(dir.path()).string() + "\nstdin-empty\n");
  CHECK(result.err.text() == "err\n");
  CHECK(result.wall_s > 0);
  CHECK(result.max_rss_kb > 0);
  CHECK(describe(result) == "exited with 3");
}

TEST_CASE("argv is passed without a shell")
{
  ProcessSpec spec;
  spec.argv = {"printf", "%s|", "a b", "$HOME", "*"};
  const ProcessResult result = run_process(spec);
  CHECK(result.succeeded());
  CHECK(result.out.text() == "a b|$HOME|*|");
}

TEST_CASE("a program that prints nothing has empty captures")
{
  ProcessSpec spec;
  spec.argv = {"true"};
  const ProcessResult result = run_process(spec);
  CHECK(result.succeeded());
  CHECK(result.out.total_bytes == 0);
  CHECK(result.out.text().empty());
  CHECK(result.err.text().empty());
}

TEST_CASE("a program killed by a signal reports the signal")
{
  ProcessResult result = run_process(shell("echo before; kill -SEGV $$"));
  CHECK(result.ending == Ending::Signaled);
  CHECK(result.signal == SIGSEGV);
  CHECK(result.out.text() == "before\n");
  CHECK(describe(result) == "killed by SIGSEGV");

  result = run_process(shell("kill -9 $$"));
  CHECK(result.ending == Ending::Signaled);
  CHECK(result.signal == SIGKILL);
}

TEST_CASE("a program that ignored SIGPIPE in ej still gets the default in the child")
{
  // yes | head ends only because yes dies of SIGPIPE; an inherited SIG_IGN would make it spin.
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  ProcessSpec spec = shell("yes | head -n 2");
  spec.timeout_s = 10;
  const ProcessResult result = run_process(spec);
  std::signal(SIGPIPE, old);
  CHECK(result.ending == Ending::Exited);
  CHECK(result.out.text() == "y\ny\n");
}

TEST_CASE("a program that hangs past its timeout is stopped with its whole group")
{
  TempDir dir;
  const auto pid_file = dir / "sleeper.pid";
  ProcessSpec spec = shell("sleep 30 & echo $! > '" + pid_file.string() + "'; echo started; wait");
  spec.timeout_s = 2; // long enough for the script to start its child on a loaded machine
  spec.kill_grace_s = 0.5;
  const ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::TimedOut);
  CHECK(result.wall_s >= 2);
  CHECK(result.out.text() == "started\n");
  CHECK_FALSE(process_alive(read_pid(pid_file)));
}

TEST_CASE("a program that ignores SIGTERM is killed after the grace period")
{
  ProcessSpec spec = shell("trap '' TERM; echo ready; while :; do sleep 0.05; done");
  spec.timeout_s = 1.5; // long enough for the shell to set its trap on a loaded machine
  spec.kill_grace_s = 0.3;
  const ProcessResult result = run_process(spec);
  CHECK(result.out.text() == "ready\n"); // the trap was set before SIGTERM came
  CHECK(result.ending == Ending::TimedOut);
  CHECK(result.signal == SIGKILL);
  CHECK(result.wall_s >= 1.8);
  // The limit the user set, not the wall time, which also holds the grace period.
  CHECK(result.limit_s == 1.5);
  CHECK(describe(result) == "timed out after 1.5 s");
}

TEST_CASE("background processes left by a finished program are stopped")
{
  TempDir dir;
  const auto pid_file = dir / "sleeper.pid";
  ProcessSpec spec = shell("sleep 30 & echo $! > '" + pid_file.string() + "'; echo done");
  spec.kill_grace_s = 0.5;
  const ProcessResult result = run_process(spec);
  CHECK(result.ending == Ending::Exited);
  CHECK(result.exit_code == 0);
  CHECK(result.leftovers_killed);
  CHECK_FALSE(process_alive(read_pid(pid_file)));
}

TEST_CASE("a leftover that ignores SIGTERM and closed its output is killed after the grace period")
{
  TempDir dir;
  const auto pid_file = dir / "stubborn.pid";
  ProcessSpec spec =
      shell("(trap '' TERM; exec sleep 30) > /dev/null 2>&1 & echo $! > '" + pid_file.string() + "'");
  spec.kill_grace_s = 0.3;
  const ProcessResult result = run_process(spec);
  CHECK(result.succeeded());
  CHECK(result.leftovers_killed);
  const pid_t pid = read_pid(pid_file);
  CHECK_FALSE(process_alive(pid));
  ::kill(pid, SIGKILL);
}

TEST_CASE("output of 100 MB is captured in bounded memory with the cut recorded")
{
  ProcessSpec spec = shell("head -c 100000000 /dev/zero | tr '\\0' 'x'; echo; echo the-end");
  spec.head_bytes = 1000;
  spec.tail_bytes = 2000;
  const ProcessResult result = run_process(spec);
  REQUIRE(result.succeeded());
  CHECK(result.out.total_bytes == 100000000 + 1 + 8);
  CHECK(result.out.head == std::string(1000, 'x'));
  CHECK(result.out.tail.size() == 2000);
  CHECK_THAT(result.out.tail, Catch::EndsWith("xxx\nthe-end\n"));
  CHECK(result.out.cut_bytes == result.out.total_bytes - 3000);
  CHECK_THAT(result.out.text(), Catch::Contains("\n[... 99997009 bytes cut ...]\n"));
}

TEST_CASE("the output hook sees every byte")
{
  ProcessSpec spec = shell("head -c 300000 /dev/zero; echo e >&2");
  std::size_t out_bytes = 0;
  std::string err_text;
  spec.on_output = [&](Stream stream, std::string_view chunk) {
    if (stream == Stream::Out) {
      out_bytes += chunk.size();
    } else {
      err_text += chunk;
    }
  };
  const ProcessResult result = run_process(spec);
  CHECK(out_bytes == 300000);
  CHECK(err_text == "e\n");
  CHECK(result.out.total_bytes == 300000);
}

std::size_t open_descriptors()
{
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                                                std::filesystem::directory_iterator()));
}

TEST_CASE("a launcher run again captures each repeat's own output, all of it, and closes what it opened")
{
  TempDir dir;
  const auto counter = dir / "count";
  write_text(counter, "0\n");
  Guardian::instance(); // ej's one guardian keeps its pipe open for good: not the launcher's to close
  const std::size_t before = open_descriptors();
  {
    // 700 kB fits the pipe once the first repeat has made it large; the hook holds ej up at the
    // first chunk, so the child is gone before ej reads the rest, which must all be read after the exit.
    ProcessSpec spec = shell("n=$(($(cat '" + counter.string() + "') + 1)); echo $n > '" + counter.string() +
                             "'; echo start; head -c 700000 /dev/zero; echo repeat-$n; echo err-$n >&2");
    bool first_chunk = true;
    spec.on_output = [&](Stream, std::string_view) {
      if (std::exchange(first_chunk, false)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      }
    };
    Launcher launcher(spec);
    for (int repeat = 1; repeat <= 4; ++repeat) {
      const ProcessResult result = launcher.run();
      REQUIRE(result.succeeded());
      first_chunk = true;
      CHECK(result.out.total_bytes ==
            std::string("start\n").size() + 700000 + std::string("repeat-1\n").size());
      CHECK_THAT(result.out.text(), Catch::EndsWith("repeat-" + std::to_string(repeat) + "\n"));
      CHECK(result.err.text() == "err-" + std::to_string(repeat) + "\n");
    }
  }
  CHECK(open_descriptors() == before);
}

TEST_CASE("a benchmark's pipes are of the default size until its output outgrows one, and large from then on")
{
  // F_GETPIPE_SZ (1032) on the benchmark's stdout; then 100 kB, more than a default pipe holds.
  const std::string size_then_fill =
      "python3 -c 'import fcntl; print(fcntl.fcntl(1, 1032))'; head -c 100000 /dev/zero";
  ProcessSpec spec = shell(size_then_fill);
  // ej held up at each repeat's first line: head fills the pipe meanwhile, and ej's next read
  // takes all of it at once, which is how ej learns the output outgrows a default pipe.
  bool first_chunk = true;
  spec.on_output = [&](Stream, std::string_view) {
    if (std::exchange(first_chunk, false)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500)); // for head, on a loaded machine
    }
  };
  Launcher launcher(spec);
  const auto size_printed = [&](const ProcessResult& result) {
    REQUIRE(result.succeeded());
    CHECK(result.out.total_bytes > 100000);
    first_chunk = true;
    return std::stol(result.out.head.substr(0, result.out.head.find('\n')));
  };
  const long first = size_printed(launcher.run());
  if (first >= 1024 * 1024) {
    EJ_SKIP_NOT_APPLICABLE("a default pipe is " + std::to_string(first) + " bytes here (large pages)");
  }
  // The 2nd repeat's pipes are made when it starts, after the 1st grew its own; the 3rd's while
  // the 2nd runs.
  CHECK(size_printed(launcher.run()) == 1024 * 1024);
  CHECK(size_printed(launcher.run()) == 1024 * 1024);
  CHECK(size_printed(Launcher(shell(size_then_fill)).run()) == first); // a new benchmark starts small
}

TEST_CASE("output written after a repeat by a process outside its group is not the next repeat's")
{
  TempDir dir;
  const auto marker = dir / "marker";
  // The late line comes a second after the first repeat, well after it has ended on a loaded
  // machine, and during the second.
  Launcher launcher(shell("if [ -e '" + marker.string() + "' ]; then sleep 1.5; echo second; else touch '" +
                          marker.string() + "'; setsid sh -c 'sleep 1; echo late' & echo first; fi"));
  const ProcessResult first = launcher.run();
  CHECK(first.out.text() == "first\n");
  const ProcessResult second = launcher.run();
  CHECK(second.out.text() == "second\n");
}

TEST_CASE("Ctrl-C while a child runs stops it and reports an interruption")
{
  TempDir dir;
  const auto pid_file = dir / "sleeper.pid";
  ProcessSpec spec = shell("sleep 30 & echo $! > '" + pid_file.string() + "'; wait");
  spec.kill_grace_s = 0.5;
  ProcessResult result;
  {
    InterruptGuard guard;
    // Once the child runs (or after a minute, so that a failure does not hang the test).
    std::thread sender([&pid_file] {
      wait_for_pid(pid_file, 60);
      ::kill(::getpid(), SIGINT);
    });
    result = run_process(spec);
    sender.join();
    CHECK(InterruptGuard::interrupted());
    CHECK(InterruptGuard::signal_number() == SIGINT);
  }
  CHECK(result.ending == Ending::Interrupted);
  CHECK_FALSE(process_alive(read_pid(pid_file)));
  CHECK(describe(result) == "interrupted");
}

TEST_CASE("a run started after an interruption does not spawn")
{
  InterruptGuard guard;
  ::raise(SIGTERM);
  CHECK(InterruptGuard::interrupted());
  const ProcessResult result = run_process(shell("echo should-not-run"));
  CHECK(result.ending == Ending::Interrupted);
  CHECK(result.out.total_bytes == 0);
}

TEST_CASE("the interrupt guard restores the previous handlers")
{
  struct sigaction before {};
  ::sigaction(SIGINT, nullptr, &before);
  {
    InterruptGuard guard;
    CHECK(InterruptGuard::wake_fd() >= 0);
    CHECK_THROWS_AS(InterruptGuard(), ej::Error);
  }
  struct sigaction after {};
  ::sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
  CHECK(InterruptGuard::wake_fd() == -1);
}
