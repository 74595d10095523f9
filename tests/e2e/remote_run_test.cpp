// ej run --on ssh:HOST and ej host, against a real OpenSSH server started by the test on
// 127.0.0.1 (support/sshd_server.h), reached through EJ_SSH_COMMAND as a user's ssh config would.
#include "support/ej_repo.h"
#include "support/fake_gpus.h"
#include "support/runs.h"
#include "support/skip.h"
#include "support/sshd_server.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// The server, or a skip with the reason when this machine truly has no OpenSSH server.
std::unique_ptr<SshdServer> start_sshd()
{
  if (const auto reason = SshdServer::unavailable()) {
    if (under_ci()) {
      FAIL("missing under CI: " << *reason << " (scripts/install-deps.sh --test installs it)");
    }
    note_skipped(*reason);
    WARN("skipped: " << *reason);
    return nullptr;
  }
  return std::make_unique<SshdServer>();
}

std::map<std::string, std::string> ssh_env(const SshdServer& server)
{
  return {{"EJ_SSH_COMMAND", server.ssh_command()}};
}

// A host "box" whose work directories are under the test's own directory.
std::filesystem::path add_box(const EjRepo& repo, const SshdServer& server)
{
  const auto root = repo.path() / ".." / (repo.path().filename().string() + "-remote-root");
  repo.ok({"host", "add", "box", "ssh:" + server.alias(), "--root", root.lexically_normal().string()});
  return root.lexically_normal();
}

// ej in the background, its output in files, so that a test can act while it runs.
struct BackgroundEj {
  int pid = -1;
  std::filesystem::path out;
  std::filesystem::path err;
};

BackgroundEj start_ej(const EjRepo& repo, const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env)
{
  BackgroundEj ej{-1, repo.path() / ".git" / "bg.out", repo.path() / ".git" / "bg.err"};
  std::string line = "exec " + std::string(EJ_BINARY);
  for (const auto& arg : args) {
    line += " '" + arg + "'";
  }
  line += " > '" + ej.out.string() + "' 2> '" + ej.err.string() + "'";
  CommandOptions options;
  options.cwd = repo.path();
  options.env = env;
  options.env.emplace("NO_COLOR", "1");
  ej.pid = start_command({"/bin/sh", "-c", line}, options);
  return ej;
}

bool wait_for_text(const std::filesystem::path& file, const std::string& text, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec) && read_text(file).find(text) != std::string::npos) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

int read_pid(const std::filesystem::path& file)
{
  return std::stoi(read_text(file));
}

} // namespace

TEST_CASE("a run on an ssh host runs the uncommitted change that only the stored diff carries")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo value=1\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  const auto root = add_box(repo, *server);
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "value=kv:value", "--", "sh", "bench.sh"});
  // The change is not committed: the host can only have it from the shipped state.
  write_text(repo.path() / "bench.sh", "echo value=2; pwd >&2\n");
  const auto result = repo.ej({"run", "b", "--on", "box"}, ssh_env(*server));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, !Catch::Contains("ej-end-")); // the wrapper's trailer is never shown
  auto run = show_run(repo, 1, true);
  CHECK(samples_of(run, "value") == std::vector<double>{2, 2, 2});
  CHECK(measured_repeats(run) == 3);
  CHECK(run["on"]["name"] == "box");
  CHECK(run["on"]["target"] == "ssh:" + server->alias());
  CHECK_FALSE(run["on"]["hostname"].get<std::string>().empty());
  const std::string work_dir = run["on"]["work_dir"];
  const auto commit = git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40);
  CHECK_THAT(work_dir, Catch::StartsWith((root / repo.path().filename() / commit).string() + "-"));
  CHECK_THAT(run["stderr"].get<std::string>(), Catch::Contains(work_dir));
  CHECK(run["git"]["dirty"] == true);
  for (const auto& repeat : run["repeats"]) {
    CHECK(repeat["wall_s"].get<double>() > 0); // measured there, by the wrapper
  }
  // The commit is reused: a clean run of the same commit ships nothing again.
  git(repo.path(), {"checkout", "bench.sh"});
  repo.ok({"run", "b", "--on", "box"}, ssh_env(*server));
  const auto again = repo.ej({"run", "b", "--on", "box"}, ssh_env(*server));
  CHECK_THAT(again.err, Catch::Contains("(already there)"));
  CHECK(samples_of(show_run(repo, 3), "value") == std::vector<double>{1, 1, 1});
}

TEST_CASE("a C program is built on the host by its build step from untracked source, once per code state")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  write_text(repo.path() / ".gitignore", "/prog\n");
  git(repo.path(), {"add", ".gitignore"});
  git(repo.path(), {"commit", "-q", "-m", "ignore the binary"});
  add_box(repo, *server);
  repo.ok({"bench", "add", "c", "--repeat", "2", "--build", "cc -O1 -o prog prog.c && echo compiled",
           "--metric", "answer=kv:answer", "--on", "box", "--", "./prog"});
  // Untracked source: only its contents, stored with the code state, reach the host.
  write_text(repo.path() / "prog.c",
             "#include <stdio.h>\nint main(void) { printf(\"answer=42\\n\"); return 0; }\n");
  const auto first = repo.ej({"run", "c"}, ssh_env(*server));
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::Contains("compiled")); // the build's output is shown live...
  auto run = show_run(repo, 1, true);
  CHECK(samples_of(run, "answer") == std::vector<double>{42, 42});
  CHECK(run["outputs"]["build"]["state"] == "built");
  CHECK_THAT(run["build_log"].get<std::string>(), Catch::Contains("compiled")); // ...and kept
  CHECK(run["on"]["name"] == "box");

  const auto second = repo.ej({"run", "c"}, ssh_env(*server));
  REQUIRE(second.exit_code == 0);
  CHECK_THAT(second.err, Catch::Contains("build reused"));
  CHECK(show_run(repo, 2)["outputs"]["build"]["state"] == "reused");

  write_text(repo.path() / "prog.c",
             "#include <stdio.h>\nint main(void) { printf(\"answer=43\\n\"); return 0; }\n");
  REQUIRE(repo.ej({"run", "c"}, ssh_env(*server)).exit_code == 0);
  run = show_run(repo, 3);
  CHECK(run["outputs"]["build"]["state"] == "built");
  CHECK(samples_of(run, "answer") == std::vector<double>{43, 43});
}

TEST_CASE("the output of a remote benchmark is streamed back while it runs")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto flag = repo.path() / ".git" / "go-on";
  // Prints, then waits for the test to have seen that line in ej's output.
  repo.ok({"bench", "add", "live", "--repeat", "1", "--timeout", "60", "--shell",
           "echo first-line; while [ ! -f '" + flag.string() + "' ]; do sleep 0.05; done; echo second-line"});
  const auto ej = start_ej(repo, {"run", "live", "--on", "box"}, ssh_env(*server));
  const bool streamed = wait_for_text(ej.out, "first-line", 30);
  write_text(flag, "go\n");
  CHECK(wait_command(ej.pid) == 0);
  CHECK(streamed);
  CHECK_THAT(read_text(ej.out), Catch::Contains("second-line"));
}

TEST_CASE("the environment snapshot of a remote run is taken on the host")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  // Set in ej's own environment only: a local snapshot has it, the host's login environment not.
  auto env = ssh_env(*server);
  env["CUDA_EJ_TEST_MARK"] = "local-only";
  repo.ok({"run", "t"}, env);
  repo.ok({"run", "t", "--on", "box"}, env);
  auto local =
      json::parse(repo.ok({"env", "show", "1", "--json"})); // not const: a missing key is a failed check
  auto remote = json::parse(repo.ok({"env", "show", "2", "--json"}));
  INFO(remote.dump(1));
  CHECK(local["fingerprint"]["variables"].contains("CUDA_EJ_TEST_MARK"));
  CHECK_FALSE(remote["fingerprint"]["variables"].contains("CUDA_EJ_TEST_MARK"));
  CHECK(remote["fingerprint"]["host"]["hostname"] == show_run(repo, 2)["on"]["hostname"]);
  CHECK_FALSE(remote["fingerprint"]["host"]["kernel"].is_null());
  CHECK(remote["fingerprint"]["gpu"].contains("source"));
}

TEST_CASE("a connection dropped mid-run keeps the measured repeats and leaves no process on the host")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto counter = repo.path() / ".git" / "count";
  const auto pid_file = repo.path() / ".git" / "remote.pid";
  // Repeats 1 and 2 are quick; the third records its pid and sleeps.
  repo.ok({"bench", "add", "drop", "--repeat", "5", "--shell",
           "n=$(cat '" + counter.string() + "' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '" +
               counter.string() + "'; if [ $n -ge 3 ]; then echo $$ > '" + pid_file.string() +
               "'; sleep 60; fi"});
  const auto ej = start_ej(repo, {"run", "drop", "--on", "box"}, ssh_env(*server));
  REQUIRE(wait_for_file(pid_file, 30));
  const int remote_pid = read_pid(pid_file);
  CHECK(process_alive(remote_pid));
  server->kill_sessions(); // as a network failure would
  CHECK(wait_command(ej.pid) == 1);
  CHECK(wait_gone(remote_pid, 10));
  const auto err = read_text(ej.err);
  INFO(err);
  CHECK_THAT(err, Catch::Contains("interrupted") && Catch::Contains("connection to"));
  auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("was lost"));
  CHECK(measured_repeats(run) == 3); // two measured, the third recorded as it ended
  CHECK(samples_of(run, "wall_s").size() == 2);
}

TEST_CASE("Ctrl-C during a remote run ends the process group on the host")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto pid_file = repo.path() / ".git" / "remote.pid";
  repo.ok({"bench", "add", "long", "--repeat", "3", "--shell",
           "sleep 60 & echo $! > '" + pid_file.string() + "'; wait"});
  const auto ej = start_ej(repo, {"run", "long", "--on", "box"}, ssh_env(*server));
  REQUIRE(wait_for_file(pid_file, 30));
  const int remote_pid = read_pid(pid_file); // a child of the benchmark's shell, in its group
  CHECK(process_alive(remote_pid));
  ::kill(ej.pid, SIGINT);
  CHECK(wait_command(ej.pid) == 130);
  CHECK(wait_gone(remote_pid, 10));
  CHECK(show_run(repo, 1)["status"] == "interrupted");
}

TEST_CASE("ej host check says what the host has, and host list what was added")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  CHECK_THAT(repo.ok({"host", "list"}), Catch::Contains("no hosts yet"));
  const auto root = add_box(repo, *server);
  const auto list = json::parse(repo.ok({"host", "list", "--json"}));
  REQUIRE(list.size() == 1);
  CHECK(list[0]["name"] == "box");
  CHECK(list[0]["target"] == "ssh:" + server->alias());
  CHECK(list[0]["root"] == root.string());
  const auto check = repo.ej({"host", "check", "box"}, ssh_env(*server));
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
  // A benchmark's default host may be an ssh destination as it is; one that would be an option of
  // ssh is refused.
  repo.ok({"bench", "add", "there", "--repeat", "1", "--on", "ssh:" + server->alias(), "--", "true"});
  REQUIRE(repo.ej({"run", "there"}, ssh_env(*server)).exit_code == 0);
  CHECK(show_run(repo, 1)["on"]["target"] == "ssh:" + server->alias());
  // Without --root the code went to ~/.cache/ej/work on the host, which is this machine and user.
  const std::filesystem::path work_dir = show_run(repo, 1)["on"]["work_dir"].get<std::string>();
  CHECK(work_dir.parent_path().filename() == repo.path().filename());
  std::filesystem::remove_all(work_dir.parent_path());
  CHECK(repo.ej({"bench", "add", "bad", "--on", "ssh:-oProxyCommand=touch", "--", "true"}).exit_code == 2);
  CHECK_THAT(check.out, Catch::Contains("reachable  ok") && Catch::Contains("shell      ok") &&
                            Catch::Contains("tar        ok") && Catch::Contains("disk       ok") &&
                            Catch::Contains("gpus"));
}

TEST_CASE("an unreachable host, a refused key and a missing program are each said clearly")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  const auto down = repo.ej({"run", "t", "--on", "ssh:" + server->alias_unreachable()}, ssh_env(*server));
  CHECK(down.exit_code == 1);
  CHECK_THAT(down.err, Catch::Contains("cannot reach " + server->alias_unreachable()));
  const auto refused =
      repo.ej({"run", "t", "--on", "ssh:" + server->alias_with_refused_key()}, ssh_env(*server));
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("refused the authentication"));
  CHECK(json::parse(repo.ok({"runs", "--json"})).empty()); // no run is left behind by either

  add_box(repo, *server);
  repo.ok({"bench", "add", "missing", "--repeat", "1", "--", "no-such-program-ej"});
  const auto missing = repo.ej({"run", "missing", "--on", "box"}, ssh_env(*server));
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("'no-such-program-ej' is not found on"));
  CHECK(show_run(repo, 1)["status"] == "failed");
}

TEST_CASE("a remote repeat over its timeout ends as timeout and leaves no process on the host")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto pid_file = repo.path() / ".git" / "remote.pid";
  // Long enough for the host's shell to start its child on a loaded machine; far less than 60 s.
  repo.ok({"bench", "add", "slow", "--repeat", "2", "--timeout", "8", "--shell",
           "sleep 60 & echo $! > '" + pid_file.string() + "'; wait"});
  const auto result = repo.ej({"run", "slow", "--on", "box"}, ssh_env(*server));
  CHECK(result.exit_code == 1);
  REQUIRE(wait_for_file(pid_file, 5));
  CHECK(wait_gone(read_pid(pid_file), 10));
  auto run = show_run(repo, 1);
  CHECK(run["status"] == "timeout");
}

TEST_CASE("the result files of remote repeats are brought back after each repeat and read here")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  // Each repeat writes its own value into a plain file and a newer match of a glob; a file
  // from before the run is moved aside on the host, never read nor lost.
  write_text(
      repo.path() / "bench.sh",
      "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count\n"
      "test -e out.json && echo stale >&2\n"
      "mkdir -p results; printf '{\"v\": %s}' $((n*10)) > out.json\n"
      "printf 'old' > results/r-0.txt; sleep 0.05; printf 'tps=%s\\n' $((n*100)) > results/r-$n.txt\n");
  write_text(repo.path() / "out.json", "{\"v\": -1}");
  git(repo.path(), {"add", "bench.sh", "out.json"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  add_box(repo, *server);
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "v=json:/v@out.json", "--metric",
           "tps=kv:tps@\"results/r-*.txt\"", "--", "sh", "bench.sh"});
  const auto result = repo.ej({"run", "b", "--on", "box"}, ssh_env(*server));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("'out.json' was there before the run: moved aside to "
                                         "'out.json.before-run-1' (kept)"));
  CHECK_THAT(result.err, !Catch::Contains("stale")); // the previous repeat's file is removed first
  auto run = show_run(repo, 1, true);
  CHECK(samples_of(run, "v") == std::vector<double>{10, 20, 30});
  CHECK(samples_of(run, "tps") == std::vector<double>{100, 200, 300});
  const std::string work_dir = run["on"]["work_dir"];
  CHECK(read_text(std::filesystem::path(work_dir) / "out.json.before-run-1") == "{\"v\": -1}");
  // The run's state on the host (what was moved aside, the marker) is gone: the host's home is
  // this user's, and no other test keeps result files there.
  const auto state = std::filesystem::path(std::getenv("HOME")) / ".cache" / "ej" / "runs";
  CHECK((!std::filesystem::exists(state) || std::filesystem::is_empty(state)));
}

TEST_CASE("a full disk on the host while shipping the code is said as such, and no run is left behind")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  // The host's root on a 1 MB file system (this test runs as root, as CI does).
  const auto small = repo.path() / ".." / (repo.path().filename().string() + "-small-root");
  std::filesystem::create_directories(small);
  const auto mounted = run_command({"mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.string()});
  if (mounted.exit_code != 0) {
    EJ_SKIP_NOT_APPLICABLE("cannot mount a small tmpfs here (" + mounted.err + ")");
  }
  struct Unmount {
    std::filesystem::path path;
    ~Unmount() { run_command({"umount", "-l", path.string()}); }
  } unmount{small};
  std::string big;
  for (int i = 0; i < 200000; ++i) {
    big += std::to_string(i * 7919) + "\n"; // ~1.3 MB that does not compress away in tar
  }
  write_text(repo.path() / "data.txt", big);
  git(repo.path(), {"add", "data.txt"});
  git(repo.path(), {"commit", "-q", "-m", "data"});
  repo.ok({"host", "add", "box", "ssh:" + server->alias(), "--root", small.string()});
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  const auto result = repo.ej({"run", "t", "--on", "box"}, ssh_env(*server));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("the disk there is full"));
  CHECK_THAT(result.err, Catch::Contains("--root DIR"));
  CHECK(json::parse(repo.ok({"runs", "--json"})).empty());
}

TEST_CASE("two runs this machine starts on one ssh host do not overlap on its GPUs")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto started = repo.path() / ".git" / "started";
  const auto release = repo.path() / ".git" / "release";
  // The first run holds the host until the test lets it go: however long the second ej takes to
  // reach the host (a loaded machine), the first is still running then.
  repo.ok({"bench", "add", "slow", "--repeat", "1", "--shell",
           "echo $$ > '" + started.string() + "'; while [ ! -e '" + release.string() +
               "' ]; do sleep 0.05; done"});
  repo.ok({"bench", "add", "quick", "--repeat", "1", "--", "true"});
  auto env = ssh_env(*server);
  env["EJ_GPU_LOCK_DIR"] = (repo.path() / ".git" / "gpu-locks").string();
  const auto first = start_ej(repo, {"run", "slow", "--on", "box"}, env);
  struct Release { // the first run is let go however the test ends
    std::filesystem::path file;
    ~Release() { write_text(file, ""); }
  } release_at_end{release};
  REQUIRE(wait_for_file(started, 30));
  const auto busy = repo.ej({"run", "quick", "--on", "box", "--no-wait"}, env);
  CHECK(busy.exit_code == 1);
  CHECK_THAT(busy.err, Catch::Contains("all GPUs are busy: run #1 on "));
  write_text(release, "");
  CHECK(wait_command(first.pid) == 0);
  // Another host's GPUs are not this one's, and once the first run ended the host is free.
  repo.ok({"run", "quick", "--on", "box", "--no-wait"}, env);
  CHECK(json::parse(repo.ok({"runs", "--json"})).size() == 2);
}

TEST_CASE("a GPU run on an ssh host reads the GPUs there, with nvidia-smi beside each repeat")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  const auto bin =
      write_fake_nvidia_smi(repo.path() / ".." / (repo.path().filename().string() + "-bin"), "GPU-remote-0");
  const auto root = repo.path() / ".." / (repo.path().filename().string() + "-remote-root");
  repo.ok({"host", "add", "box", "ssh:" + server->alias(), "--root", root.lexically_normal().string(),
           "--env", "PATH=" + bin.lexically_normal().string() + ":/usr/local/bin:/usr/bin:/bin"});
  // Long enough for the sampler, started beside it, to read twice on a loaded machine.
  repo.ok({"bench", "add", "g", "--repeat", "3", "--shell", "sleep 0.5"});
  const auto result = repo.ej({"run", "g", "--on", "box", "--gpu-sample-ms", "10"}, ssh_env(*server));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1);
  for (const auto& repeat : run["repeats"]) {
    REQUIRE(repeat["device"].size() == 1);
    CHECK(repeat["device"][0]["uuid"] == "GPU-remote-0");
    CHECK(repeat["device"][0]["samples"].get<int>() >= 2);
    CHECK(repeat["device"][0]["sm_clock_mhz"]["median"] == 1410);
    CHECK(repeat["wall_s"].get<double>() >= 0.5);
  }
  auto env = json::parse(repo.ok({"env", "show", "1", "--json"}));
  CHECK(env["fingerprint"]["gpu"]["source"] == "nvidia-smi");
  CHECK(env["fingerprint"]["gpu"]["clocks_policy"] == "default");
}

TEST_CASE("the CPU time of a remote repeat is measured on the host")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  repo.ok({"bench", "add", "busy", "--repeat", "2", "--shell",
           "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"});
  const auto result = repo.ej({"run", "busy", "--on", "box"}, ssh_env(*server));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1);
  for (const auto& repeat : run["repeats"]) {
    CHECK(repeat["user_s"].get<double>() + repeat["sys_s"].get<double>() > 0.05);
    // Only gross nonsense (the wrapper's whole life counted) is refused here: under a loaded
    // sanitizer run user time was seen at 1.55x the wall time of this one-process loop, which says
    // the two are read over slightly different spans (noted as a known issue, not yet fixed).
    CHECK(repeat["user_s"].get<double>() <= repeat["wall_s"].get<double>() * 1.5 + 0.5);
  }
}

TEST_CASE("a probe's output over ssh is what it printed, with its own exit status")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  repo.ok({"env", "probe", "add", "greeting", "--", "echo", "hello"});
  repo.ok({"env", "probe", "add", "silent", "--", "true"});
  repo.ok({"env", "probe", "add", "failing", "--shell", "echo partial; exit 3"});
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  repo.ok({"run", "t", "--on", "box"}, ssh_env(*server));
  auto env = json::parse(repo.ok({"env", "show", "1", "--json"}));
  auto& probes = env["fingerprint"]["probes"];
  INFO(probes.dump(1));
  CHECK(probes["greeting"]["output"] == "hello\n");
  CHECK(probes["greeting"]["exit_code"] == 0);
  CHECK(probes["silent"]["exit_code"] == 0); // no output is not a failure
  CHECK(probes["silent"]["error"].is_null());
  CHECK(probes["failing"]["output"] == "partial\n");
  CHECK(probes["failing"]["exit_code"] == 3);
  CHECK_THAT(repo.ok({"env", "show", "1"}), !Catch::Contains("@@"));
}

TEST_CASE("ej host check reports the toolkit the host's own PATH finds, and a small disk in its unit")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  const auto bin = repo.path() / ".." / (repo.path().filename().string() + "-cuda-12.8-bin");
  std::filesystem::create_directories(bin);
  write_text(bin / "nvcc", "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                           "echo 'Cuda compilation tools, release 12.8, V12.8.93'\n");
  std::filesystem::permissions(bin / "nvcc", std::filesystem::perms::owner_all);
  const auto small = repo.path() / ".." / (repo.path().filename().string() + "-small-check-root");
  std::filesystem::create_directories(small);
  const auto mounted = run_command({"mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.string()});
  if (mounted.exit_code != 0) {
    EJ_SKIP_NOT_APPLICABLE("cannot mount a small tmpfs here (" + mounted.err + ")");
  }
  struct Unmount {
    std::filesystem::path path;
    ~Unmount() { run_command({"umount", "-l", path.string()}); }
  } unmount{small};
  repo.ok({"host", "add", "box", "ssh:" + server->alias(), "--root", small.lexically_normal().string(),
           "--env", "PATH=" + bin.lexically_normal().string() + ":/usr/local/bin:/usr/bin:/bin"});
  const auto check = repo.ej({"host", "check", "box"}, ssh_env(*server));
  INFO(check.out << check.err);
  CHECK_THAT(check.out, Catch::Contains("toolkit    ok Cuda compilation tools, release 12.8, V12.8.93 (" +
                                        (bin.lexically_normal() / "nvcc").string() + ")"));
  // 1 MiB (or a little less, as the file system counts it), not "0.0 GiB".
  CHECK_THAT(check.out, (Catch::Contains(" MiB free under ") || Catch::Contains(" KiB free under ")) &&
                            !Catch::Contains("0.0 GiB"));
  CHECK(check.exit_code == 1); // under 1 GiB free: not enough for benchmarks
}

TEST_CASE("a shipment cut short by a full disk on the host leaves no partial copy, and the next one ships")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  const auto small = repo.path() / ".." / (repo.path().filename().string() + "-full-root");
  std::filesystem::create_directories(small);
  const auto mounted = run_command({"mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.string()});
  if (mounted.exit_code != 0) {
    EJ_SKIP_NOT_APPLICABLE("cannot mount a small tmpfs here (" + mounted.err + ")");
  }
  struct Unmount {
    std::filesystem::path path;
    ~Unmount() { run_command({"umount", "-l", path.string()}); }
  } unmount{small};
  std::string big;
  for (int i = 0; i < 200000; ++i) {
    big += std::to_string(i * 7919) + "\n"; // ~1.3 MB that does not compress away in tar
  }
  write_text(repo.path() / "data.txt", big);
  git(repo.path(), {"add", "data.txt"});
  git(repo.path(), {"commit", "-q", "-m", "data"});
  repo.ok({"host", "add", "box", "ssh:" + server->alias(), "--root", small.string()});
  repo.ok({"bench", "add", "t", "--repeat", "1", "--", "true"});
  const auto full = repo.ej({"run", "t", "--on", "box"}, ssh_env(*server));
  CHECK(full.exit_code == 1);
  CHECK_THAT(full.err, Catch::Contains("the disk there is full"));
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(small)) {
    if (entry.path().extension() == ".tmp") {
      left.push_back(entry.path().string());
    }
  }
  CHECK(left.empty());
  // The user makes the commit smaller: it fits, since nothing of the failed one holds the space.
  git(repo.path(), {"rm", "-q", "data.txt"});
  git(repo.path(), {"commit", "-q", "-m", "no data"});
  const auto after = repo.ej({"run", "t", "--on", "box"}, ssh_env(*server));
  INFO(after.err);
  CHECK(after.exit_code == 0);
}

TEST_CASE("what a remote benchmark leaves running is stopped on the host, and the escapers counted")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto pids = repo.path() / ".git" / "pids";
  // One process left in the benchmark's group, one escaped with setsid (its output elsewhere).
  repo.ok({"bench", "add", "leaky", "--repeat", "1", "--shell",
           "sleep 300 > /dev/null 2>&1 & echo $! >> '" + pids.string() + "'; setsid sh -c 'echo $$ >> \"" +
               pids.string() + "\"; exec sleep 301' > /dev/null 2>&1 & sleep 0.5"});
  const auto result = repo.ej({"run", "leaky", "--on", "box"}, ssh_env(*server));
  INFO(result.err);
  // Invalid, its repeat's work having outlived it (docs/benchmarks.md, "Checks"); stopped all the same.
  REQUIRE(result.exit_code == 1);
  CHECK(show_run(repo, 1)["status"] == "invalid");
  std::vector<int> started;
  std::ifstream in(pids);
  for (int pid = 0; in >> pid;) {
    started.push_back(pid);
  }
  REQUIRE(started.size() == 2);
  for (const int pid : started) {
    CHECK(wait_gone(pid, 10));
    ::kill(pid, SIGKILL);
  }
  const auto run = show_run(repo, 1, true);
  CHECK(run["outputs"]["leftovers"]["processes"] == 1);
  CHECK(run["outputs"]["leftovers"]["found_by"] == "environment");
  CHECK_THAT(result.err, Catch::Contains("the benchmark left 1 process running outside its process group"));
}

TEST_CASE("Ctrl-C during a remote run ends a setsid escaper on the host too")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  add_box(repo, *server);
  const auto pid_file = repo.path() / ".git" / "escaper.pid";
  repo.ok({"bench", "add", "long", "--repeat", "3", "--shell",
           "setsid sh -c 'echo $$ > \"" + pid_file.string() +
               "\"; exec sleep 300' > /dev/null 2>&1 & sleep 300"});
  const auto ej = start_ej(repo, {"run", "long", "--on", "box"}, ssh_env(*server));
  REQUIRE(wait_for_file(pid_file, 30));
  const int escaper = read_pid(pid_file);
  CHECK(process_alive(escaper));
  ::kill(ej.pid, SIGINT);
  CHECK(wait_command(ej.pid) == 130);
  CHECK(wait_gone(escaper, 15));
  ::kill(escaper, SIGKILL);
  CHECK(show_run(repo, 1)["status"] == "interrupted");
}

TEST_CASE("ej run --against on an ssh host measures both code states there in rounds, each shipped once")
{
  const auto server = start_sshd();
  if (!server) {
    return;
  }
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo value=1; pwd >&2\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  const auto root = add_box(repo, *server);
  repo.ok({"bench", "add", "b", "--repeat", "4", "--metric", "value=kv:value", "--", "sh", "bench.sh"});
  write_text(repo.path() / "bench.sh", "echo value=2; pwd >&2\n"); // the candidate: not committed
  const auto result =
      repo.ej({"run", "b", "--on", "box", "--against", "HEAD", "--seed", "7"}, ssh_env(*server));
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("interleaved"));
  const auto candidate = show_run(repo, 1, true);
  const int reference_number = candidate["comparison"]["reference"].get<int>();
  const auto reference = show_run(repo, reference_number, true);
  CHECK(samples_of(candidate, "value") == std::vector<double>{2, 2, 2, 2});
  CHECK(samples_of(reference, "value") == std::vector<double>{1, 1, 1, 1});
  // Both measured on the host, each in the work directory of its own code state.
  const auto commit = git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40);
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["on"]["name"] == "box");
    const std::string work_dir = (*run)["on"]["work_dir"];
    CHECK_THAT(work_dir, Catch::StartsWith((root / repo.path().filename() / commit).string()));
    CHECK_THAT((*run)["stderr"].get<std::string>(), Catch::Contains(work_dir));
  }
  CHECK(candidate["on"]["work_dir"] != reference["on"]["work_dir"]);
  CHECK(candidate["git"]["dirty"] == true);
  CHECK(reference["git"]["dirty"] == false);
  // The reference, restored in a worktree of its own here, shares the repository's place there:
  // a second session ships neither side again.
  const auto again =
      repo.ej({"run", "b", "--on", "box", "--against", "HEAD", "--repeat", "2"}, ssh_env(*server));
  INFO(again.err);
  CHECK(again.exit_code == 0);
  const auto& err = again.err;
  const auto first = err.find("(already there)");
  REQUIRE(first != std::string::npos);
  CHECK(err.find("(already there)", first + 1) != std::string::npos);
}
