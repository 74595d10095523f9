// ej run at its edges: a terminal that hangs up, a benchmark that prints millions of values, an
// ej killed together with its guardian, and ej's own temporary files in the work tree.
#include "support/ej_repo.h"
#include "support/pty_process.h"
#include "support/runs.h"
#include "support/skip.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// A child of `parent` whose command name is `comm` (/proc/PID/stat), or -1.
int child_named(int parent, const std::string& comm)
{
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 4 >= text.size()) {
      continue;
    }
    std::istringstream rest(text.substr(close + 2));
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && text.substr(open + 1, close - open - 1) == comm) {
      return std::stoi(name);
    }
  }
  return -1;
}

// The cgroup (v2) a process is in, as /proc/PID/cgroup says ("" when none).
std::string cgroup_of(int pid)
{
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("0::", 0) == 0) {
      return line.substr(3);
    }
  }
  return "";
}

// Where the cgroup2 hierarchy is mounted ("" when it is not).
std::filesystem::path cgroup2_mount()
{
  std::ifstream mounts("/proc/self/mounts");
  for (std::string device, point, type, rest;
       mounts >> device >> point >> type && std::getline(mounts, rest);) {
    if (type == "cgroup2") {
      return point;
    }
  }
  return {};
}

} // namespace

TEST_CASE("a terminal that hangs up mid-run ends the run as interrupted, every measured repeat kept")
{
  EjRepo repo;
  const auto started = repo.path() / ".git" / "long.started";
  const auto count = repo.path() / ".git" / "count";
  // Forty quick repeats, then one that waits: the hang-up comes during it, well within the second
  // in which ej has not written the quick ones yet.
  repo.ok({"bench", "add", "b", "--repeat", "41", "--shell",
           "n=$(cat '" + count.string() + "' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '" +
               count.string() + "'; if [ $n -ge 41 ]; then echo x > '" + started.string() +
               "'; sleep 60; fi"});
  // The terminal's session leader is a shell that ignores SIGHUP and passes nothing on, as a
  // killed tmux pane's can: ej learns of the hang-up only from its writes failing with EIO.
  const auto status_file = repo.path() / ".git" / "ej.status";
  PtyProcess terminal(
      {"/bin/sh", "-c",
       "trap '' HUP; '" + std::string(EJ_BINARY) + "' run b; echo $? > '" + status_file.string() + "'"},
      repo.path(), {{"NO_COLOR", "1"}});
  REQUIRE(wait_for_file(started, 60));
  REQUIRE(terminal.wait_for_output("repeat 41/41", 30)); // the progress line is drawn
  terminal.hang_up();
  const int status = terminal.wait();
  INFO(terminal.output());
  CHECK(WIFEXITED(status));
  REQUIRE(wait_for_file(status_file, 30));
  CHECK(std::stoi(read_text(status_file)) == 128 + SIGHUP); // as a SIGHUP ends it, not SIGABRT
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), !Catch::Contains("stopped without finishing"));
  CHECK(samples_of(run, "wall_s").size() == 40);
  CHECK(measured_repeats(run) == 41); // the forty, and the one the hang-up interrupted
}

TEST_CASE(
    "a repeat that prints more values of a metric than ej keeps ends the run saying so, earlier ones kept")
{
  EjRepo repo;
  const auto count = repo.path() / "count";
  // The first repeat prints 900 values, the second 1,500: past EJ_MAX_SAMPLES=1000.
  repo.ok({"bench", "add", "flood", "--repeat", "3", "--metric", "lat=regex:lat=([0-9]+)", "--shell",
           "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; "
           "if [ $n -eq 1 ]; then seq 900; else seq 1500; fi | sed 's/^/lat=/'"});
  const auto result = repo.ej({"run", "flood", "--quiet"}, {{"EJ_MAX_SAMPLES", "1000"}});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err,
             Catch::Contains("metric 'lat': stdout held 1500 values, more than the 1000 ej keeps of "
                             "one metric from one repeat") &&
                 Catch::Contains("EJ_MAX_SAMPLES"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "extract-error");
  CHECK(samples_of(run, "lat").size() == 900);

  const auto bad = repo.ej({"run", "flood", "--quiet"}, {{"EJ_MAX_SAMPLES", "lots"}});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("EJ_MAX_SAMPLES='lots' is not a number of values"));
}

TEST_CASE("a repeat with tens of thousands of values keeps every one, in order, across the journal's batches")
{
  EjRepo repo;
  // Two metrics, the first with two series keyed by a `per` field: more than one event's worth.
  repo.ok({"bench", "add", "many", "--repeat", "2", "--metric", "lat=kv:lat;per=size", "--metric",
           "tput=regex:tput ([0-9]+) tok/s", "--shell",
           "seq 30000 | awk '{ print \"size=\" ($1 % 2 ? \"a\" : \"b\") \" lat=\" $1 \" ns\" } "
           "END { for (i = 1; i <= 70000; i++) print \"tput \" i \" tok/s\" }'"});
  repo.ok({"run", "many", "--quiet"});
  const auto run = show_run(repo, 1);
  const auto lat = samples_of(run, "lat");
  const auto tput = samples_of(run, "tput");
  REQUIRE(lat.size() == 60000);
  REQUIRE(tput.size() == 140000);
  CHECK(tput.front() == 1);
  CHECK(tput[69999] == 70000);
  CHECK(tput.back() == 70000);
  double sum = 0;
  for (const double value : lat) {
    sum += value;
  }
  CHECK(sum == 2.0 * 30000.0 * 30001.0 / 2.0); // every value of both repeats, in ns as printed
  // The same samples after the derived tables are rebuilt from the events.
  repo.ok({"reindex"});
  CHECK(samples_of(show_run(repo, 1), "tput") == tput);
}

TEST_CASE("what an ej killed together with its guardian left in its run's cgroup is stopped by the next ej")
{
  EjRepo repo;
  const auto pid_file = repo.path() / ".git" / "escaper.pid";
  repo.ok({"bench", "add", "stay", "--repeat", "1", "--shell",
           "setsid sh -c 'echo $$ > \"" + pid_file.string() +
               "\"; exec sleep 300' > /dev/null 2>&1 & sleep 300"});
  CommandOptions options;
  options.cwd = repo.path();
  options.env = {{"NO_COLOR", "1"}};
  const int ej = start_command({EJ_BINARY, "run", "stay", "--quiet"}, options);
  REQUIRE(wait_for_file(pid_file, 30));
  const int escaper = std::stoi(read_text(pid_file));
  const auto cgroup = cgroup_of(escaper);
  if (cgroup.find("/ej-run-") == std::string::npos) {
    ::kill(ej, SIGKILL);
    wait_command(ej);
    ::kill(escaper, SIGKILL);
    EJ_SKIP_NOT_APPLICABLE("no cgroup for a run here: the escaper is in " + cgroup);
  }
  // The guardian first, so that it cannot stop anything once ej is gone.
  const int guardian = child_named(ej, "ej");
  REQUIRE(guardian > 0);
  ::kill(guardian, SIGKILL);
  ::kill(ej, SIGKILL);
  CHECK(wait_command(ej) == 128 + SIGKILL);
  std::this_thread::sleep_for(std::chrono::seconds(2)); // what a guardian would have taken
  const auto directory = cgroup2_mount() / cgroup.substr(1);
  // Any ej on the machine stops what a dead ej left: another test's may have been first.
  if (process_alive(escaper)) {
    CHECK(std::filesystem::is_directory(directory));
  }
  // Any command sees the run's owner gone, records it interrupted, and stops what it left.
  repo.ok({"runs"});
  CHECK(wait_gone(escaper, 10));
  CHECK_FALSE(std::filesystem::exists(directory));
  CHECK(show_run(repo, 1)["status"] == "interrupted");
  ::kill(escaper, SIGKILL);
}

TEST_CASE("an empty run cgroup whose ej is gone is removed by the next run")
{
  EjRepo repo;
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  repo.ok({"run", "t", "--quiet"});
  const auto found_by = show_run(repo, 1, true)["outputs"]["leftovers"]["found_by"];
  if (found_by != "cgroup") {
    EJ_SKIP_NOT_APPLICABLE("no cgroup for a run here");
  }
  // A cgroup named as the run cgroup of an ej that has exited (the pid of a process gone).
  const int gone = start_command({"true"});
  wait_command(gone);
  const auto home = cgroup2_mount() / cgroup_of(::getpid()).substr(1);
  const auto left = home / ("ej-run-" + std::to_string(gone) + "-1");
  std::filesystem::create_directory(left);
  REQUIRE(std::filesystem::is_directory(left));
  repo.ok({"run", "t", "--quiet"});
  CHECK_FALSE(std::filesystem::exists(left));
}

TEST_CASE("a file another ej is writing in the work tree is never part of a run's code state")
{
  EjRepo repo;
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  // What a render of journal/plan.md in another terminal holds for a moment.
  std::filesystem::create_directories(repo.path() / "journal");
  write_text(repo.path() / "journal" / "plan.md.ej-tmp-4242", "# half a document\n");
  repo.ok({"run", "t", "--quiet"});
  const auto run = show_run(repo, 1, true);
  CHECK(run["git"]["dirty"] == false);
  // A file of the user's with a similar name is the user's.
  write_text(repo.path() / "journal" / "plan.md.ej-tmp-draft", "mine\n");
  repo.ok({"run", "t", "--quiet"});
  CHECK(show_run(repo, 2, true)["git"]["dirty"] == true);
}
