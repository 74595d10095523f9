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

// The name in "run @k3f9qx started in the background": the run is named before it is recorded.
std::string detached_run_name(const CommandResult& result)
{
  INFO("ej stdout: " << result.out << "\nej stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  const auto at = result.out.find("run @");
  REQUIRE(at != std::string::npos);
  return result.out.substr(at + 4, 7);
}

// Waits until the detached run `name` is recorded; returns its number.
int recorded_number(const EjRepo& repo, const std::string& name, double seconds = 20)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto shown = repo.ej({"show", "run", name, "--json"});
    if (shown.exit_code == 0) {
      return json::parse(shown.out)["number"].get<int>();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("run " << name << " was not recorded within " << seconds << " s");
  return 0;
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
  const auto name = detached_run_name(repo.ej({"run", "ticks", "--detach"}));
  CHECK(recorded_number(repo, name) == 1);
  // Recorded and still running: the benchmark waits for "go".
  const auto running = json::parse(repo.ok({"runs", "--running", "--json"}));
  REQUIRE(running.size() == 1);
  CHECK(running[0]["number"] == 1);
  CHECK(running[0]["status"] == "started");
  CHECK(running[0]["log"] == (repo.ej_dir() / "runs" / "1.log").string());
  CHECK(wait_for_text(repo.ej_dir() / "runs" / "1.log", "\ntick\n", 10) == "ej: run #1 of ticks r1\ntick\n");
  CHECK_FALSE(std::filesystem::exists(repo.ej_dir() / "runs" / (name + ".log")));
  write_text(repo.path() / "go", "");
  const auto follow = repo.ej({"show", "run", "1", "--follow"});
  INFO(follow.err);
  CHECK(follow.exit_code == 0);
  CHECK_THAT(follow.out, Catch::StartsWith("ej: run #1 of ticks r1\ntick\ntick\ntick\n"));
  CHECK_THAT(follow.out, Catch::Contains("run #1 ticks finished: 3 repeat(s)"));
  const auto wait = repo.ej({"wait", name});
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
  REQUIRE(recorded_number(repo, detached_run_name(repo.ej({"run", "sleeper", "--detach"}))) == 1);
  REQUIRE(wait_for_file(repo.path() / "pids.txt", 10));
  const int benchmark = std::stoi(read_text(repo.path() / "pids.txt"));
  const auto timed_out = repo.ej({"wait", "1", "--timeout", "0.3"});
  CHECK(timed_out.exit_code == 0); // still going: not a failure
  CHECK_THAT(timed_out.out, Catch::Contains("run #1 is still running"));

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
               Catch::Contains("run @") && Catch::Contains(" started in the background"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100)); // let setsid's exec of sh settle
  ::kill(-session, SIGHUP);  // what a closing terminal sends its session's process group...
  ::kill(-session, SIGKILL); // ...and what a tool that times out does to its command
  wait_command(session);
  REQUIRE(recorded_number(repo, detached_run_name({0, 0, 0, read_text(repo.path() / "started.txt"), ""})) ==
          1);
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
  REQUIRE(recorded_number(first, detached_run_name(first.ej({"run", "hold", "--gpus", "0", "--detach"}))) ==
          1);
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

TEST_CASE("an ej run that another run's benchmark started measures inside that run's hold of the GPUs")
{
  EjRepo outer;
  EjRepo inner; // ej measuring ej, or a benchmark script that runs ej: waiting would be forever
  inner.ok({"bench", "add", "quick", "--repeat", "3", "--shell", "echo quick"});
  const auto err = (outer.path() / "nested.err").string();
  outer.ok({"bench", "add", "nested", "--repeat", "1", "--timeout", "20", "--shell",
            "cd '" + inner.path().string() + "' && '" + std::string(EJ_BINARY) + "' run quick --quiet 2> '" +
                err + "'"});
  const auto ran = outer.ej({"run", "nested", "--quiet"});
  INFO(ran.err);
  CHECK(ran.exit_code == 0);
  CHECK(show_run(outer, 1)["status"] == "finished");
  CHECK(show_run(inner, 1)["status"] == "finished");
  CHECK_THAT(read_text(err),
             Catch::Contains("ej: measuring inside the hold of run #1 in " + outer.path().string() + " on " +
                             host_name() + ", all GPUs, whose benchmark started this ej"));
  CHECK(json::parse(outer.ok({"runs", "--queue", "--json"})).empty());

  // GPUs beyond the outer run's hold are not the inner run's to take unlocked, nor to wait for.
  outer.ok({"bench", "add", "wider", "--repeat", "1", "--timeout", "20", "--shell",
            "cd '" + inner.path().string() + "' && '" + std::string(EJ_BINARY) +
                "' run quick --gpus 0,1 2> '" + err + "'"});
  CHECK(outer.ej({"run", "wider", "--gpus", "0", "--quiet"}).exit_code != 0);
  CHECK(show_run(outer, 2)["status"] == "failed");
  CHECK_THAT(read_text(err),
             Catch::Contains("this run would use GPUs 0-1 while run #2 in " + outer.path().string() + " on " +
                             host_name() + ", GPU 0, whose benchmark started this ej, holds GPU 0"));
}

TEST_CASE(
    "a detached run returns before the environment is read, and ej wait reports it while it is prepared")
{
  EjRepo repo;
  // A probe that holds the snapshot until told: the start must not wait for it.
  repo.ok({"env", "probe", "add", "gate", "--timeout", "60", "--shell",
           "while [ ! -e probe-go ]; do sleep 0.02; done; echo ready"});
  repo.ok({"bench", "add", "quick", "--repeat", "2", "--shell", "echo quick"});
  const auto started = repo.ej({"run", "quick", "--detach"});
  const auto name = detached_run_name(started);
  CHECK_THAT(started.err, Catch::Contains("ej wait " + name));
  const auto preparing = repo.ej({"wait", name, "--timeout", "0.3"});
  CHECK(preparing.exit_code == 0);
  CHECK_THAT(preparing.out, Catch::Contains("run " + name + " is still being prepared"));
  const auto preparing_json = json::parse(repo.ok({"wait", name, "--timeout", "0.05", "--json"}));
  CHECK(preparing_json[0]["state"] == "preparing");
  CHECK(preparing_json[0]["number"].is_null());
  write_text(repo.path() / "probe-go", "");
  const auto wait = repo.ej({"wait", name, "--timeout", "60"});
  INFO(wait.err);
  CHECK(wait.exit_code == 0);
  CHECK_THAT(wait.out, Catch::Contains("run #1 quick finished: 2 repeat(s)"));
  CHECK_THAT(repo.ok({"env", "show", name}), Catch::Contains("ready"));
}

TEST_CASE("a detached run whose code state cannot be shipped fails in the background, and ej wait says why")
{
  EjRepo repo;
  repo.ok({"bench", "add", "far", "--repeat", "1", "--shell", "echo far"});
  // An ssh that cannot connect: the shipping fails after the start has returned.
  const std::map<std::string, std::string> env = {{"EJ_SSH_COMMAND", "false"}};
  const auto started = repo.ej({"run", "far", "--on", "ssh:nowhere.invalid", "--detach"}, env);
  const auto name = detached_run_name(started);
  const auto wait = repo.ej({"wait", name, "--timeout", "60"});
  CHECK(wait.exit_code == 1);
  CHECK_THAT(wait.out, Catch::Contains("run " + name + " failed before it was recorded: ") &&
                           Catch::Contains("nowhere.invalid"));
  CHECK_THAT(repo.ok({"runs"}), Catch::Contains("no runs yet"));
  const auto follow = repo.ej({"show", "run", name, "--follow"});
  CHECK(follow.exit_code == 1);
  CHECK_THAT(follow.err, Catch::Contains("failed before it was recorded"));
  CHECK(repo.ej({"cancel", name}).exit_code == 1);
}

TEST_CASE("ej wait takes several runs: 0 when all finished or one still runs, 1 when one failed")
{
  EjRepo repo;
  repo.ok({"bench", "add", "ok", "--repeat", "1", "--shell", "true"});
  repo.ok({"bench", "add", "bad", "--repeat", "1", "--shell", "exit 3"});
  repo.ok({"bench", "add", "slow", "--repeat", "1", "--shell", "while [ ! -e go ]; do sleep 0.02; done"});
  repo.ok({"run", "ok", "--quiet"});
  CHECK(repo.ej({"run", "bad", "--quiet"}).exit_code == 1);
  repo.ok({"run", "ok", "--quiet"});
  const auto all = repo.ej({"wait", "1", "r3"});
  CHECK(all.exit_code == 0);
  CHECK_THAT(all.out, Catch::Contains("run #1 ok finished") && Catch::Contains("run #3 ok finished"));
  const auto one_failed = repo.ej({"wait", "1", "2", "3"});
  CHECK(one_failed.exit_code == 1);
  CHECK_THAT(one_failed.out, Catch::Contains("run #2 bad failed"));
  const auto slow = recorded_number(repo, detached_run_name(repo.ej({"run", "slow", "--detach"})));
  const auto going = repo.ej({"wait", "1", std::to_string(slow), "--timeout", "0.2"});
  CHECK(going.exit_code == 0);
  CHECK_THAT(going.out, Catch::Contains("run #1 ok finished") &&
                            Catch::Contains("run #" + std::to_string(slow) + " is still running"));
  CHECK(repo.ej({"wait", "2", std::to_string(slow), "--timeout", "0.2"}).exit_code == 1); // a failure wins
  write_text(repo.path() / "go", "");
  CHECK(repo.ej({"wait", "1", std::to_string(slow), "--timeout", "60"}).exit_code == 0);
  CHECK(repo.ej({"wait", "9"}).exit_code == 1);
}

TEST_CASE("ej cancel reports the repeats measured, not the one it cut short")
{
  EjRepo repo;
  repo.ok({"bench", "add", "third", "--repeat", "3", "--metric", "t=kv:t", "--shell",
           "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; echo 't: 1'; "
           "if [ $n -ge 2 ]; then exec sleep 60; fi"});
  const auto name = detached_run_name(repo.ej({"run", "third", "--detach"}));
  REQUIRE(recorded_number(repo, name) == 1);
  REQUIRE(wait_for_text(repo.path() / "count", "3", 20) == "3\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200)); // its output read
  // By the name `run --detach` gave, as by its number: the name's repeats are the number's.
  const auto cancel = repo.ej({"cancel", name});
  INFO(cancel.err);
  CHECK(cancel.exit_code == 0);
  CHECK_THAT(cancel.out, Catch::Contains("run #1 third interrupted: 2 repeat(s) and 1 cut short") &&
                             Catch::Contains("n = 2"));
  CHECK_THAT(repo.ok({"show", "run", name}), Catch::Contains("2 repeat(s) and 1 cut short"));
  CHECK_THAT(repo.ok({"show", "run", "1"}), Catch::Contains("2 repeat(s) and 1 cut short"));
}

TEST_CASE("ej run --against --detach returns at once, ej wait gives the ending, both sides are recorded")
{
  EjRepo repo;
  repo.ok(
      {"bench", "add", "ticks", "--repeat", "3", "--shell", "while [ ! -e \"$GO\" ]; do sleep 0.02; done"});
  const auto go = repo.path() / ".git" / "go";
  const auto started = repo.ej({"run", "ticks", "--against", "HEAD", "--detach"}, {{"GO", go.string()}});
  const auto name = detached_run_name(started);
  // Named before the reference is restored: the starter does not wait for the session.
  CHECK_THAT(started.err, Catch::Contains("ej wait " + name));
  const int candidate = recorded_number(repo, name);
  CHECK(repo.ej({"wait", name, "--timeout", "1"}).exit_code == 0); // still going: not a failure
  write_text(go, "");
  const auto waited = repo.ej({"wait", name});
  INFO(waited.out << waited.err);
  CHECK(waited.exit_code == 0);
  CHECK_THAT(waited.out,
             Catch::Contains("run " + std::string("#") + std::to_string(candidate) + " ticks finished"));
  const auto shown = show_run(repo, candidate);
  CHECK(shown["status"] == "finished");
  CHECK(shown["comparison"]["candidate"] == candidate);
  const int reference = shown["comparison"]["reference"].get<int>();
  CHECK(show_run(repo, reference)["status"] == "finished");
  CHECK(measured_repeats(show_run(repo, reference)) == 3);
  CHECK(std::filesystem::is_empty(repo.ej_dir() / "rerun"));
}

TEST_CASE(
    "ej wait --timeout says how far a run still going has come (repeats, medians, time left) and exits 0")
{
  EjRepo repo;
  // Two quick repeats of a little over half a second (the journal takes the repeats once a second),
  // then a third that waits for "go".
  repo.ok({"bench", "add", "paced", "--repeat", "3", "--shell",
           "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; sleep 0.6; "
           "if [ $n -ge 2 ]; then while [ ! -e go ]; do sleep 0.02; done; fi"});
  const auto name = detached_run_name(repo.ej({"run", "paced", "--detach"}));
  REQUIRE(recorded_number(repo, name) == 1);
  json progress;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto waited = repo.ej({"wait", "r1", "--timeout", "0.1", "--json"});
    REQUIRE(waited.exit_code == 0);
    const auto state = json::parse(waited.out).at(0);
    REQUIRE(state["state"] == "running");
    progress = state["progress"];
    if (progress["repeats_done"] == 2 && progress["series"].size() == 1 && progress["series"][0]["n"] == 2) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  INFO(progress.dump());
  CHECK(progress["phase"] == "measuring");
  CHECK(progress["repeats_done"] == 2);
  CHECK(progress["repeats_planned"] == 3);
  CHECK(progress["eta_s"].is_number());
  REQUIRE(progress["series"].size() == 1);
  const auto& wall = progress["series"][0];
  CHECK(wall["metric"] == "wall_s");
  CHECK(wall["median"].get<double>() >= 0.6);
  CHECK(wall["low"].get<double>() <= wall["median"].get<double>());
  CHECK(wall["high"].get<double>() >= wall["median"].get<double>());

  const auto text = repo.ej({"wait", "r1", "--timeout", "0.2"});
  INFO(text.err);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("run #1 is still running (measuring): 2 of 3 repeats in ") &&
                           Catch::Contains(" left\n  wall_s: median ") && Catch::Contains("n = 2"));
  write_text(repo.path() / "go", "");
  const auto ended = json::parse(repo.ok({"wait", "r1", "--json"}));
  CHECK(ended[0]["state"] == "finished");
  CHECK(ended[0]["status"] == "finished");
  CHECK(ended[0]["progress"].is_null());
  CHECK_THAT(ended[0]["summary"].get<std::string>(), Catch::Contains("run #1 paced finished: 3 repeat(s)"));
  for (const auto& entry : std::filesystem::directory_iterator(repo.ej_dir() / "runs")) {
    CHECK(entry.path().extension() != ".progress"); // the note goes with the run
  }
}

TEST_CASE("ej run --detach returns before the benchmark's build step has ended: the build goes on in the "
          "background")
{
  EjRepo repo;
  // The build waits for a file the test writes only once ej run --detach has returned: a start that
  // waited for the build would see it time out and the run would end build-failed.
  repo.ok(
      {"bench", "add", "built", "--repeat", "1", "--build",
       "i=0; while [ ! -e build-go ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i+1)); done; test -e build-go",
       "--shell", "echo ran"});
  const auto started = repo.ej({"run", "built", "--detach"});
  const auto name = detached_run_name(started);
  write_text(repo.path() / "build-go", "");
  const auto wait = repo.ej({"wait", name});
  INFO(wait.out << wait.err);
  CHECK(wait.exit_code == 0);
  CHECK_THAT(wait.out, Catch::Contains("run #1 built finished: 1 repeat(s)"));
}

TEST_CASE("ej cancel takes a detached run by the name it started with, and its reason says who cancelled it")
{
  EjRepo repo;
  repo.ok({"bench", "add", "sleeper", "--repeat", "2", "--shell", "echo $$ >> pids.txt; exec sleep 60"});
  const auto name = detached_run_name(repo.ej({"run", "sleeper", "--detach"}));
  REQUIRE(recorded_number(repo, name) == 1);
  REQUIRE(wait_for_file(repo.path() / "pids.txt", 10));
  const auto cancel = repo.ej({"cancel", name});
  INFO(cancel.err);
  CHECK(cancel.exit_code == 0);
  CHECK_THAT(cancel.out, Catch::Contains("run #1 sleeper interrupted"));
  CHECK_THAT(show_run(repo, 1)["reason"].get<std::string>(),
             Catch::Contains("cancelled with 'ej cancel' by "));
}
