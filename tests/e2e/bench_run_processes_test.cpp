// What a run leaves running, however ej ends: signals from a closed terminal or a closed pipe,
// SIGKILL, leftovers that ignore SIGTERM, an output nobody reads, Ctrl-Z, and another ej that
// must not take a live run for abandoned.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/skip.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <pty.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ej::test;
using nlohmann::json;

namespace {

// The pids a benchmark wrote, one a line, once there are at least `count` of them.
std::vector<int> read_pids(const std::filesystem::path& path, std::size_t count)
{
  std::vector<int> pids;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    pids.clear();
    std::ifstream in(path);
    for (int pid = 0; in >> pid;) {
      pids.push_back(pid);
    }
    if (pids.size() >= count) {
      return pids;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("the benchmark did not write " << count << " pids to " << path);
  return pids;
}

// No benchmark process outlives ej and its guardian: each is gone once they are (ej stops its
// leftovers before it exits; the guardian those of an ej killed). The wait is not a bound on their
// speed: a process that is never stopped fails here after a minute, not a slow one.
void check_all_gone(const std::vector<int>& pids)
{
  for (const int pid : pids) {
    INFO("benchmark process " << pid);
    CHECK(wait_gone(pid, 60.0));
  }
  for (const int pid : pids) {
    ::kill(pid, SIGKILL); // whatever a failed check left behind
  }
}

// The process state letter of /proc/PID/stat ('T' when stopped), or 0.
char process_state(int pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() ? text[paren + 2] : '\0';
}

bool wait_state(int pid, char state, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (process_state(pid) != state) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::int64_t count_events(const EjRepo& repo, const std::string& type)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(repo.db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* select = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM events WHERE type = ?", -1, &select, nullptr) ==
          SQLITE_OK);
  sqlite3_bind_text(select, 1, type.c_str(), -1, SQLITE_TRANSIENT);
  std::int64_t count = -1;
  if (sqlite3_step(select) == SQLITE_ROW) {
    count = sqlite3_column_int64(select, 0);
  }
  sqlite3_finalize(select);
  sqlite3_close(db);
  return count;
}

std::string status_of_run(const EjRepo& repo, int number)
{
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  for (const auto& run : runs) {
    if (run["number"] == number) {
      return run["status"];
    }
  }
  return "";
}

// From the third repeat on: a background child, and the benchmark waits for it.
constexpr const char* k_tree_script =
    "echo x >> count.txt; echo n=$(wc -l < count.txt); if [ $(wc -l < count.txt) -ge 3 ]; then "
    "sleep 60 & echo $! >> pids.txt; echo $$ >> pids.txt; wait; fi";

} // namespace

TEST_CASE("SIGHUP or SIGQUIT to ej mid-run stops the benchmark's processes and records the run interrupted")
{
  for (const int signal : {SIGHUP, SIGQUIT}) {
    EjRepo repo;
    INFO("signal " << signal);
    repo.ok({"bench", "add", "tree", "--repeat", "50", "--metric", "n=regex:n=([0-9]+)", "--shell",
             k_tree_script});
    const auto ej = start_command({"sh", "-c", "exec \"$0\" run tree --quiet 2> ej.err", EJ_BINARY},
                                  {repo.path(), {}, {}});
    const auto pids = read_pids(repo.path() / "pids.txt", 2);
    ::kill(ej, signal);
    CHECK(wait_command(ej) == 128 + signal);
    check_all_gone(pids);
    CHECK_THAT(read_text(repo.path() / "ej.err"),
               Catch::Contains(std::string("interrupted by SIG") + (signal == SIGHUP ? "HUP" : "QUIT")));
    const auto run = show_run(repo, 1);
    CHECK(run["status"] == "interrupted");
    CHECK(samples_of(run, "n") == std::vector<double>{1, 2});
  }
}

TEST_CASE("ej run piped into head -1 ends at SIGPIPE with its benchmark's processes, and the run interrupted")
{
  EjRepo repo;
  repo.ok({"bench", "add", "chatty", "--repeat", "5", "--shell",
           "sleep 60 & echo $! >> pids.txt; echo $$ >> pids.txt; while :; do echo line; sleep 0.05; done"});
  const auto shell = start_command(
      {"sh", "-c", "\"$0\" run chatty 2> ej.err | head -1 > head.out", EJ_BINARY}, {repo.path(), {}, {}});
  const auto pids = read_pids(repo.path() / "pids.txt", 2);
  CHECK(wait_command(shell) == 0); // the pipeline ends once ej does
  check_all_gone(pids);
  CHECK(read_text(repo.path() / "head.out") == "line\n");
  CHECK_THAT(read_text(repo.path() / "ej.err"), Catch::Contains("interrupted by SIGPIPE"));
  CHECK(show_run(repo, 1)["status"] == "interrupted");
}

namespace {

// A process that leaves the benchmark's process group, then writes its pid.
constexpr const char* k_escape_script =
    "setsid sh -c 'echo $$ >> pids.txt; exec sleep 60' > /dev/null 2>&1 & ";

// How this machine holds a run's processes, as ej recorded it: "cgroup" or "environment".
std::string found_by_here(const EjRepo& repo)
{
  repo.ok({"bench", "add", "probe-containment", "--repeat", "1", "--", "true"});
  repo.ok({"run", "probe-containment", "--quiet"});
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  const auto found_by = show_run(repo, runs.back()["number"], true)["outputs"]["leftovers"]["found_by"];
  return found_by.is_string() ? found_by.get<std::string>() : "";
}

} // namespace

TEST_CASE("an ej killed with SIGKILL takes its benchmark's processes with it, a setsid escaper included")
{
  EjRepo repo;
  const auto found_by = found_by_here(repo);
  // The last one clears its environment: only the run's cgroup holds it.
  repo.ok({"bench", "add", "tree", "--repeat", "5", "--shell",
           "sleep 60 & echo $! >> pids.txt; setsid sleep 60 & echo $! >> pids.txt; echo $$ >> pids.txt; "
           "env -i setsid sleep 61 & echo $! >> hidden.txt; wait"});
  const auto ej = start_command({EJ_BINARY, "run", "tree", "--quiet"}, {repo.path(), {}, {}});
  const auto pids = read_pids(repo.path() / "pids.txt", 3);
  const auto hidden = read_pids(repo.path() / "hidden.txt", 1);
  ::kill(ej, SIGKILL);
  CHECK(wait_command(ej) == 128 + SIGKILL);
  check_all_gone(pids);
  if (found_by == "cgroup") {
    check_all_gone(hidden);
  } else {
    // Without a cgroup a process that clears its environment escapes: documented, not checked.
    WARN("not checked: no cgroup for a run here, and a process that clears its environment escapes");
    for (const int pid : hidden) {
      ::kill(pid, SIGKILL);
    }
  }
  CHECK(status_of_run(repo, 2) == "interrupted");
}

TEST_CASE("processes left running outside the benchmark's process group are stopped when the run ends, and "
          "counted in the run")
{
  EjRepo repo;
  const auto found_by = found_by_here(repo);
  // Each repeat waits until its two processes have left its process group, which ej stops after it.
  repo.ok(
      {"bench", "add", "daemon", "--repeat", "2", "--shell",
       std::string("n=$(($(cat n 2>/dev/null || echo 0) + 1)); echo $n > n; ") + k_escape_script +
           "env -i setsid sh -c 'echo $$ >> hidden.txt; exec sleep 61' > /dev/null 2>&1 & " +
           "until [ $(cat pids.txt hidden.txt 2>/dev/null | wc -l) -ge $((2 * n)) ]; do sleep 0.01; done"});
  const auto result = repo.ej({"run", "daemon", "--quiet"});
  INFO(result.err);
  // Work that outlived its repeats makes the run invalid (docs/benchmarks.md, "Checks").
  CHECK(result.exit_code == 1);
  CHECK(show_run(repo, 2)["status"] == "invalid");
  const auto pids = read_pids(repo.path() / "pids.txt", 2);
  const auto hidden = read_pids(repo.path() / "hidden.txt", 2);
  const auto leftovers = show_run(repo, 2, true)["outputs"]["leftovers"];
  CHECK(leftovers["found_by"] == found_by);
  check_all_gone(pids);
  if (found_by == "cgroup") {
    CHECK(leftovers["processes"] == 4);
    CHECK_THAT(result.err, Catch::Contains("left 4 processes running outside its process group") &&
                               Catch::Contains("the run's cgroup"));
    check_all_gone(hidden);
  } else {
    WARN("cgroup not checked: no cgroup for a run here");
    CHECK(leftovers["processes"] == 2);
    for (const int pid : hidden) {
      ::kill(pid, SIGKILL);
    }
  }
}

TEST_CASE("with EJ_CGROUP=off, what left the process group is found by the EJ_GUARD variable, and said so")
{
  EjRepo repo;
  repo.ok({"bench", "add", "daemon", "--repeat", "1", "--shell",
           std::string(k_escape_script) + "until [ -s pids.txt ]; do sleep 0.01; done"});
  const auto result = repo.ej({"run", "daemon", "--quiet"}, {{"EJ_CGROUP", "off"}});
  INFO(result.err);
  CHECK(result.exit_code == 1); // invalid: its work outlived the repeat
  CHECK(show_run(repo, 1)["status"] == "invalid");
  const auto pids = read_pids(repo.path() / "pids.txt", 1);
  const auto leftovers = show_run(repo, 1, true)["outputs"]["leftovers"];
  CHECK(leftovers["found_by"] == "environment");
  CHECK(leftovers["processes"] == 1);
  CHECK_THAT(result.err, Catch::Contains("left 1 process running") && Catch::Contains("EJ_GUARD"));
  check_all_gone(pids);
}

TEST_CASE("leftovers that ignore SIGTERM are killed after the grace period, not piled up across repeats")
{
  EjRepo repo;
  // Each repeat leaves a process that ignores SIGTERM and holds none of the benchmark's pipes; the
  // next repeat notes any earlier one still alive.
  // A warmup first: a measured repeat that leaves work behind ends the run invalid.
  repo.ok({"bench", "add", "leaky", "--warmup", "1", "--repeat", "1", "--shell",
           "for p in $(cat pids.txt 2>/dev/null); do s=$(sed -n 's/^State:[[:space:]]*\\(.\\).*/\\1/p' "
           "/proc/$p/status "
           "2>/dev/null); [ -n \"$s\" ] && [ \"$s\" != Z ] && echo $p >> alive.txt; done; "
           "(trap '' TERM; exec sleep 60) > /dev/null 2>&1 & echo $! >> pids.txt"});
  const auto result = repo.ej({"run", "leaky", "--quiet"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  const auto pids = read_pids(repo.path() / "pids.txt", 2);
  CHECK_FALSE(std::filesystem::exists(repo.path() / "alive.txt"));
  for (const int pid : pids) {
    INFO("leftover " << pid);
    CHECK_FALSE(process_alive(pid));
    ::kill(pid, SIGKILL);
  }
  CHECK(show_run(repo, 1)["status"] == "invalid");
}

TEST_CASE("a stdout nobody reads does not hold up the run: the timeout is enforced and the output captured")
{
  EjRepo repo;
  // 300 kB fill the pipe to `sleep`, which never reads; then the benchmark hangs past its timeout.
  repo.ok({"bench", "add", "flood", "--repeat", "1", "--timeout", "1", "--shell",
           "head -c 300000 /dev/zero | tr '\\0' x; echo; echo done; sleep 60"});
  // The reader never reads and outlives any wait below: the run must reach its timeout while ej's
  // stdout is still full. Only then is the reader stopped, so that ej can end. The wait is not a
  // bound on ej's speed (a sanitized ej on a loaded machine is slow): a run held up by its stdout
  // stays "started" until the reader goes.
  const auto shell = start_command(
      {"sh", "-c", "\"$0\" run flood 2> ej.err | sh -c 'echo $$ > reader.pid; exec sleep 120'", EJ_BINARY},
      {repo.path(), {}, {}});
  REQUIRE(wait_for_file(repo.path() / "reader.pid", 20));
  const int reader = std::stoi(read_text(repo.path() / "reader.pid"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(45);
  std::string status;
  while (std::chrono::steady_clock::now() < deadline && status != "timeout") {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (std::filesystem::exists(repo.db_path())) {
      status = status_of_run(repo, 1);
    }
  }
  CHECK(process_alive(reader)); // the timeout was reached with nobody reading
  CHECK(status == "timeout");
  ::kill(reader, SIGKILL);
  wait_command(shell);
  CHECK_THAT(read_text(repo.path() / "ej.err"), Catch::Contains("not read fast enough"));
  const auto run = show_run(repo, 1, true);
  CHECK(run["outputs"]["stdout_bytes"] == 300000 + 1 + 5);
}

TEST_CASE("Ctrl-Z stops the benchmark with ej, and the repeat it interrupted is made again, not measured")
{
  EjRepo repo;
  repo.ok(
      {"bench", "add", "steady", "--repeat", "3", "--shell",
       "echo x >> count.txt; echo $$ > bench.pid; if [ $(wc -l < count.txt) -eq 2 ]; then echo > at2.flag; "
       "sleep 3; fi"}); // long enough for Ctrl-Z to land in it on a loaded machine
  // ej in a process group of its own, in the foreground of a real terminal, as a shell runs it.
  int master = -1;
  const pid_t leader = ::forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(leader >= 0);
  if (leader == 0) {
    const pid_t child = ::fork();
    if (child == 0) {
      ::setpgid(0, 0);
      ::signal(SIGTTOU, SIG_IGN);
      ::tcsetpgrp(STDIN_FILENO, ::getpgrp());
      ::signal(SIGTTOU, SIG_DFL);
      if (::chdir(repo.path().c_str()) == 0) {
        ::dup2(::open("ej.err", O_WRONLY | O_CREAT | O_TRUNC, 0644), STDERR_FILENO);
        ::execl(EJ_BINARY, EJ_BINARY, "run", "steady", "--quiet", static_cast<char*>(nullptr));
      }
      ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
    }
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  }
  // The terminal's output is drained so that nothing ej prints can block on it.
  std::thread drain([master] {
    char buffer[4096];
    while (::read(master, buffer, sizeof buffer) > 0) {
    }
  });
  REQUIRE(wait_for_file(repo.path() / "at2.flag", 20));
  const int bench = std::stoi(read_text(repo.path() / "bench.pid"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const char ctrl_z = 0x1a;
  REQUIRE(::write(master, &ctrl_z, 1) == 1);
  int ej = 0;
  {
    std::ifstream stat("/proc/" + std::to_string(bench) + "/stat");
    std::string text;
    std::getline(stat, text);
    REQUIRE(!text.empty()); // the benchmark is still in its sleep
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    char state = 0;
    fields >> state >> ej; // state, then the parent: ej
  }
  // Waits, not bounds on speed: a sanitized ej on a loaded machine may take seconds to stop.
  CHECK(wait_state(ej, 'T', 20));
  CHECK(wait_state(bench, 'T', 20)); // the benchmark stops with ej...
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(process_state(bench) == 'T'); // ...and stays stopped while ej is
  ::kill(ej, SIGCONT);
  int status = 0;
  while (::waitpid(leader, &status, 0) < 0) {
  }
  ::close(master);
  drain.join();
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  CHECK(measured_repeats(run) == 3);
  int stopped = 0;
  for (const auto& repeat : run["repeats"]) {
    stopped += repeat["ending"] == "stopped" ? 1 : 0;
  }
  CHECK(stopped == 1);
  const auto walls = samples_of(run, "wall_s");
  REQUIRE(walls.size() == 3);
  // The repeats measured do not sleep; the stopped one (3 s asleep, 4.5 with the stop) is not one.
  CHECK(*std::max_element(walls.begin(), walls.end()) < 1.4);
}

TEST_CASE("a live run of an ej installed as ej-1.2 is not taken for abandoned by another ej, and ends once")
{
  EjRepo repo;
  TempDir bin("ej-copy");
  const auto copy = bin.path() / "ej-1.2";
  std::filesystem::copy_file(EJ_BINARY, copy);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  // The last repeat waits for the test (a minute at most) so that the run is live while other ej
  // commands look at it, however slow they are under a sanitizer.
  repo.ok({"bench", "add", "long", "--repeat", "12", "--shell",
           "echo x >> count.txt; sleep 0.4; if [ $(wc -l < count.txt) -ge 12 ]; then "
           "for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done; fi"});
  const auto ej = start_command({copy.string(), "run", "long", "--quiet"}, {repo.path(), {}, {}});
  REQUIRE(wait_for_file(repo.path() / "count.txt", 20));
  repo.ok({"log"});
  repo.ok({"fsck"});
  CHECK(status_of_run(repo, 1) == "started");
  write_text(repo.path() / "go", "go\n");
  CHECK(wait_command(ej) == 0);
  CHECK(status_of_run(repo, 1) == "finished");
  CHECK(count_events(repo, "run.finished") == 1);
}

TEST_CASE("ej is back out of its run's cgroup before its guardian learns that ej is ending")
{
  // At exit the guardian's pipe closes, and the guardian stops the run's cgroup if ej has not
  // released it: with ej still inside (its way out, on a helper thread, waits for a grace period),
  // ej was killed after its run had been recorded. Seen with strace: the helper's write of ej's
  // pid to its home cgroup.procs ends before ej closes the guardian's pipe.
  EjRepo repo;
  if (found_by_here(repo) != "cgroup") {
    EJ_SKIP_NOT_APPLICABLE("no cgroup for a run here: ej never enters one to leave");
  }
  repo.ok({"bench", "add", "nap", "--repeat", "1", "--", "sleep", "0.3"}); // past a grace period
  const TempDir scratch("ej-strace");
  const auto log = scratch / "strace.log";
  const char* asan = std::getenv("ASAN_OPTIONS"); // LeakSanitizer cannot run under ptrace
  const std::string no_leak_check = std::string(asan != nullptr ? asan : "") + ":detect_leaks=0";
  const auto traced = run_command({"strace", "-f", "-qq", "-e", "trace=pipe2,clone,openat,write,close", "-o",
                                   log.string(), EJ_BINARY, "run", "nap", "--quiet"},
                                  {repo.path(), {{"ASAN_OPTIONS", no_leak_check}}, ""});
  INFO(traced.err);
  REQUIRE(std::filesystem::exists(log)); // strace (scripts/install-deps.sh --test)
  REQUIRE(traced.exit_code == 0);

  std::vector<std::string> lines;
  std::istringstream text(read_text(log));
  for (std::string line; std::getline(text, line);) {
    lines.push_back(line);
  }
  REQUIRE_FALSE(lines.empty());
  const std::string ej_pid = lines.front().substr(0, lines.front().find(' '));
  const auto of = [](const std::string& line) { return line.substr(0, line.find(' ')); };
  const auto has = [](const std::string& line, const std::string& part) {
    return line.find(part) != std::string::npos;
  };
  // What a call returned, on its line or on the line that resumes it.
  const auto result_of = [&](std::size_t i, const std::string& call) {
    for (std::size_t j = i; j < lines.size(); ++j) {
      if (of(lines[j]) == of(lines[i]) && (j == i || has(lines[j], "<... " + call + " resumed>")) &&
          !has(lines[j], "unfinished")) {
        return lines[j].substr(lines[j].rfind("= ") + 2);
      }
    }
    return std::string();
  };
  std::string last_pipe_write_end;
  std::string guardian_fd; // the write end of the pipe ej made just before forking its guardian
  std::string home_fd;     // the helper's descriptor on its home cgroup.procs
  std::string helper;
  std::size_t home_written = 0;
  std::size_t guardian_closed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    if (of(line) == ej_pid && has(line, "pipe2([")) {
      const auto comma = line.find(", ", line.find("pipe2(["));
      last_pipe_write_end = line.substr(comma + 2, line.find(']', comma) - comma - 2);
    } else if (guardian_fd.empty() && of(line) == ej_pid && has(line, "clone(child_stack=NULL")) {
      guardian_fd = last_pipe_write_end; // a fork, not a spawn (CLONE_VM): the guardian
    } else if (of(line) != ej_pid && has(line, "/cgroup.procs\", O_WRONLY") && !has(line, "ej-run-")) {
      helper = of(line);
      home_fd = result_of(i, "openat");
    } else if (!helper.empty() && home_written == 0 && of(line) == helper &&
               (has(line, "write(" + home_fd + ", \"" + ej_pid + "\"") || has(line, "<... write resumed>")) &&
               !has(line, "unfinished")) {
      home_written = i;
    } else if (!guardian_fd.empty() && of(line) == ej_pid && has(line, "close(" + guardian_fd + ")")) {
      guardian_closed = i;
    }
  }
  INFO("guardian's pipe " << guardian_fd << ", helper " << helper << " on descriptor " << home_fd);
  REQUIRE(home_written > 0);    // ej went home on its helper thread
  REQUIRE(guardian_closed > 0); // and let its guardian go at exit
  CHECK(home_written < guardian_closed);
}

TEST_CASE("ej run stopped by SIGTERM reaps its benchmark's orphans itself, however late init would reap them")
{
  EjRepo repo;
  // The shell dies of the TERM first: its sleep is an orphan, a zombie until someone reaps it.
  repo.ok({"bench", "add", "orphans", "--repeat", "1", "--shell", "sleep 60 & echo $! > sleep.pid; wait"});
  const auto pid_file = repo.path() / "sleep.pid";
  // The harness stands in for an init that reaps late (many containers' and VMs'): a subreaper
  // that reaps nothing while ej runs. An orphan ej leaves is the harness's; one ej takes it reaps.
  const pid_t harness = ::fork();
  REQUIRE(harness >= 0);
  if (harness == 0) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    const pid_t ej = ::fork();
    if (ej == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      if (::chdir(repo.path().c_str()) != 0 || ::dup2(null, 1) < 0 || ::dup2(null, 2) < 0) {
        ::_exit(127);
      }
      ::execl(EJ_BINARY, EJ_BINARY, "run", "orphans", "--quiet", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    int sleep_pid = 0;
    for (int tries = 0; tries < 2000 && sleep_pid == 0; ++tries) {
      std::ifstream in(pid_file);
      in >> sleep_pid;
      ::usleep(10'000);
    }
    ::usleep(100'000); // the shell is in its wait
    ::kill(ej, SIGTERM);
    int status = 0;
    ::waitpid(ej, &status, 0);
    const bool left_to_harness = sleep_pid > 0 && ::waitpid(sleep_pid, nullptr, 0) == sleep_pid;
    const bool exited_143 = WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM;
    ::_exit((sleep_pid > 0 ? 0 : 1) | (exited_143 ? 0 : 2) | (left_to_harness ? 4 : 0));
  }
  int status = 0;
  REQUIRE(::waitpid(harness, &status, 0) == harness);
  REQUIRE(WIFEXITED(status));
  const int code = WEXITSTATUS(status);
  INFO("1: the benchmark never started, 2: ej did not exit 143, 4: ej left the benchmark's orphan to init");
  CHECK(code == 0);
  CHECK(show_run(repo, 1)["status"] == "interrupted");
}

TEST_CASE("an interleaved run whose candidate leaves work running ends invalid at that block, the process "
          "counted and stopped")
{
  EjRepo repo;
  const auto found_by = found_by_here(repo);
  // Only the candidate escapes: the file that makes it do so is not in HEAD, the reference's code.
  write_text(repo.path() / "escape-here", "");
  repo.ok({"bench", "add", "daemon", "--repeat", "3", "--warmup", "0", "--shell",
           std::string("if [ -e escape-here ]; then ") + k_escape_script +
               "until [ -s pids.txt ]; do sleep 0.01; done; fi"});
  const auto result = repo.ej({"run", "daemon", "--quiet", "--against", "HEAD"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const auto pids = read_pids(repo.path() / "pids.txt", 1);
  check_all_gone(pids);
  const auto candidate = show_run(repo, 2, true);
  CHECK(candidate["status"] == "invalid");
  CHECK(candidate["outputs"]["leftovers"]["found_by"] == found_by);
  CHECK(candidate["outputs"]["leftovers"]["processes"] == 1);
  CHECK(measured_repeats(candidate) == 1); // the session stopped at the block that left it
  const auto reference =
      show_run(repo, candidate["comparison"].is_null() ? 3 : candidate["comparison"]["reference"].get<int>());
  CHECK(reference["status"] != "finished");
  CHECK_THAT(reference["reason"].get<std::string>(), Catch::Contains("the interleaved session stopped"));
}
