// Runs that outlive the command that started them (ej run --detach, wait, follow, cancel) and the
// machine-wide GPU lock that keeps two runs off the same GPUs.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <regex>
#include <thread>
#include <unistd.h>

using namespace ej::test;
using nlohmann::json;

namespace {

// The number in "run #N started in the background".
int detached_run_number(const CommandResult& result)
{
  INFO("ej stdout: " << result.out << "\nej stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  const auto at = result.out.find("run #");
  REQUIRE(at != std::string::npos);
  return std::stoi(result.out.substr(at + 5));
}

// Waits until a file holds `text` (or `seconds` pass); returns what it holds.
std::string wait_for_text(const std::filesystem::path& path, const std::string& text, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::string content;
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path);
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (content.find(text) != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return content;
}

std::string host_name()
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

} // namespace

TEST_CASE("a detached run returns its number at once and follow shows its output live and wait its ending")
{
  EjRepo repo;
  repo.ok({"bench", "add", "ticks", "--repeat", "3", "--shell",
           "echo tick; while [ ! -e go ]; do sleep 0.02; done"});
  const int run = detached_run_number(repo.ej({"run", "ticks", "--detach"}));
  CHECK(run == 1);
  // Recorded before the start returned, and still running: the benchmark waits for "go".
  const auto running = json::parse(repo.ok({"runs", "--running", "--json"}));
  REQUIRE(running.size() == 1);
  CHECK(running[0]["number"] == 1);
  CHECK(running[0]["status"] == "started");
  CHECK(running[0]["log"] == (repo.ej_dir() / "runs" / "1.log").string());
  CHECK(wait_for_text(repo.ej_dir() / "runs" / "1.log", "\ntick\n", 10) == "ej: run #1 of ticks r1\ntick\n");
  write_text(repo.path() / "go", "");
  const auto follow = repo.ej({"show", "run", "1", "--follow"});
  INFO(follow.err);
  CHECK(follow.exit_code == 0);
  CHECK_THAT(follow.out, Catch::StartsWith("ej: run #1 of ticks r1\ntick\ntick\ntick\n"));
  CHECK_THAT(follow.out, Catch::Contains("run #1 ticks finished: 3 repeat(s)"));
  const auto wait = repo.ej({"wait", "1"});
  CHECK(wait.exit_code == 0);
  CHECK_THAT(wait.out, Catch::Contains("run #1 ticks finished"));
  CHECK(show_run(repo, 1)["status"] == "finished");
  CHECK(json::parse(repo.ok({"runs", "--running", "--json"})).empty());
}

TEST_CASE("a detached run that cannot start says why and returns its error and leaves no run")
{
  EjRepo repo;
  const auto result = repo.ej({"run", "nothing", "--detach"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("no benchmark named 'nothing'"));
  CHECK_THAT(repo.ok({"runs"}), Catch::Contains("no runs yet"));
}

TEST_CASE("ej cancel stops a detached run's benchmark and records it interrupted saying who cancelled it")
{
  EjRepo repo;
  repo.ok({"bench", "add", "sleeper", "--repeat", "2", "--shell", "echo $$ >> pids.txt; exec sleep 60"});
  REQUIRE(detached_run_number(repo.ej({"run", "sleeper", "--detach"})) == 1);
  REQUIRE(wait_for_file(repo.path() / "pids.txt", 10));
  const int benchmark = std::stoi(read_text(repo.path() / "pids.txt"));
  const auto timed_out = repo.ej({"wait", "1", "--timeout", "0.3"});
  CHECK(timed_out.exit_code == 1);
  CHECK_THAT(timed_out.err, Catch::Contains("run #1 is still running after 0.3 s"));

  const auto cancel = repo.ej({"cancel", "1"});
  INFO(cancel.err);
  CHECK(cancel.exit_code == 0);
  CHECK_THAT(cancel.out, Catch::Contains("run #1 sleeper interrupted"));
  CHECK(wait_gone(benchmark, 5));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("cancelled with 'ej cancel' by "));
  CHECK(repo.ej({"wait", "1"}).exit_code == 1);
  const auto again = repo.ej({"cancel", "1"});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::Contains("run #1 is not running: it ended interrupted"));
}

TEST_CASE(
    "a detached run survives the terminal and the tool that started it: its session killed it still finishes")
{
  EjRepo repo;
  repo.ok({"bench", "add", "slow", "--repeat", "2", "--shell",
           "while [ ! -e go ]; do sleep 0.02; done; echo done"});
  // A session of its own as a terminal's would be: its shell starts the run, then idles until killed.
  const int session = start_command(
      {"setsid", "sh", "-c", "\"$0\" run slow --detach > started.txt 2>&1; exec sleep 60", EJ_BINARY},
      {repo.path(), {}, {}});
  REQUIRE_THAT(wait_for_text(repo.path() / "started.txt", "started in the background", 10),
               Catch::Contains("run #1 started in the background"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100)); // let setsid's exec of sh settle
  ::kill(-session, SIGHUP);  // what a closing terminal sends its session's process group...
  ::kill(-session, SIGKILL); // ...and what a tool that times out does to its command
  wait_command(session);
  CHECK(json::parse(repo.ok({"runs", "--running", "--json"})).size() == 1);
  write_text(repo.path() / "go", "");
  const auto wait = repo.ej({"wait", "1", "--timeout", "30"});
  INFO(wait.err);
  CHECK(wait.exit_code == 0);
  CHECK(show_run(repo, 1)["status"] == "finished");
  CHECK(measured_repeats(show_run(repo, 1)) == 2);
}

TEST_CASE("two runs on one GPU queue across repositories: the second waits saying for whom and --no-wait is "
          "refused")
{
  EjRepo first;
  EjRepo second; // another repository of the same machine: the lock is the machine's
  const auto order = first.path() / "order.txt";
  first.ok({"bench", "add", "hold", "--repeat", "1", "--shell",
            "echo hold-start >> " + order.string() +
                "; while [ ! -e go ]; do sleep 0.02; done; echo hold-end >> " + order.string()});
  second.ok({"bench", "add", "quick", "--repeat", "1", "--shell", "echo quick >> " + order.string()});
  REQUIRE(detached_run_number(first.ej({"run", "hold", "--gpus", "0", "--detach"})) == 1);
  REQUIRE(wait_for_text(order, "hold-start", 10) == "hold-start\n");

  // --no-wait: refused, nothing recorded; all GPUs include GPU 0.
  for (const std::vector<std::string>& gpus :
       {std::vector<std::string>{"--gpus", "0"}, std::vector<std::string>{}}) {
    auto args = std::vector<std::string>{"run", "quick", "--no-wait"};
    args.insert(args.end(), gpus.begin(), gpus.end());
    const auto refused = second.ej(args);
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.err, Catch::Contains("busy: run #1 in " + first.path().string() + " on " +
                                            host_name() + ", GPU 0"));
  }
  CHECK_THAT(second.ok({"runs"}), Catch::Contains("no runs yet"));
  // Another GPU is free.
  second.ok({"run", "quick", "--gpus", "1", "--no-wait", "--quiet"});
  CHECK(read_text(order) == "hold-start\nquick\n");

  // A second run on GPU 0 waits, saying for whom, and is listed in the queue.
  const int waiting = start_command(
      {"sh", "-c", "exec \"$0\" run quick --gpus 0 --quiet 2> wait.err", EJ_BINARY}, {second.path(), {}, {}});
  CHECK_THAT(wait_for_text(second.path() / "wait.err", "is waiting", 10),
             Catch::Contains("ej: run #2 is waiting for run #1 in " + first.path().string() + " on " +
                             host_name() + ", GPU 0"));
  const auto queue = json::parse(second.ok({"runs", "--queue", "--json"}));
  REQUIRE(queue.size() == 2);
  CHECK(queue[0]["state"] == "running");
  CHECK(queue[0]["run"] == 1);
  CHECK(queue[0]["repository"] == first.path().string());
  CHECK(queue[1]["state"] == "waiting");
  CHECK(queue[1]["run"] == 2);
  CHECK(queue[1]["gpus"] == "GPU 0");
  const auto running = json::parse(second.ok({"runs", "--running", "--json"}));
  REQUIRE(running.size() == 1);
  CHECK(running[0]["waiting_for_gpus"] == true);

  write_text(first.path() / "go", "");
  CHECK(wait_command(waiting) == 0);
  CHECK(read_text(order) == "hold-start\nquick\nhold-end\nquick\n");
  CHECK(first.ej({"wait", "1", "--timeout", "30"}).exit_code == 0);
  CHECK(show_run(second, 2)["status"] == "finished");
  CHECK(json::parse(second.ok({"runs", "--queue", "--json"})).empty());
}
