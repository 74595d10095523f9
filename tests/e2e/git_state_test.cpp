// The code state an attempt records: submodules with changes, and a large diff that must not
// hold the journal's write lock while it is computed.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("a submodule with uncommitted changes makes the attempt dirty, with the submodule's diff")
{
  TempDir library;
  make_git_repo(library.path());
  write_text(library / "kernel.cu", "__global__ void k() {}\n");
  git(library.path(), {"add", "kernel.cu"});
  git(library.path(), {"commit", "-q", "-m", "kernel"});

  EjRepo repo;
  git(repo.path(),
      {"-c", "protocol.file.allow=always", "submodule", "add", "-q", library.path().string(), "lib"});
  git(repo.path(), {"commit", "-q", "-m", "add lib"});
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "clean", "--plan", "p"});
  CHECK(json::parse(repo.ok({"show", "1", "--json"}))["git"]["dirty"] == false);

  write_text(repo.path() / "lib" / "kernel.cu", "__global__ void k() { /* unrolled */ }\n");
  repo.ok({"try", "changed inside the submodule", "--plan", "p"});
  const auto shown = json::parse(repo.ok({"show", "2", "--json", "--diff"}));
  CHECK(shown["git"]["dirty"] == true);
  const std::string diff = shown["diff"];
  CHECK_THAT(diff, Catch::Contains("# submodule lib at ") &&
                       Catch::Contains("+__global__ void k() { /* unrolled */ }"));
}

TEST_CASE("the diff of a large modified file is computed before the journal is locked")
{
  // Large enough that its diff takes well over the other writer's 2 s wait below (1.1 s for 60 MB
  // on a 2-core machine), so that a diff made under the lock fails the test.
  constexpr int k_megabytes = 200;
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  {
    std::ofstream big(repo.path() / "weights.bin", std::ios::binary);
    std::string block(1 << 20, '\0');
    for (int i = 0; i < k_megabytes; ++i) {
      for (std::size_t j = 0; j < block.size(); j += 4096) {
        block[j] = static_cast<char>(i + j);
      }
      big.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
  }
  git(repo.path(), {"add", "weights.bin"});
  git(repo.path(), {"commit", "-q", "-m", "weights"});
  {
    std::fstream big(repo.path() / "weights.bin", std::ios::in | std::ios::out | std::ios::binary);
    for (int i = 0; i < k_megabytes; ++i) {
      big.seekp(static_cast<std::streamoff>(i) << 20);
      big.write("changed", 7);
    }
  }
  CommandOptions options;
  options.cwd = repo.path();
  const auto started = std::chrono::steady_clock::now();
  const int trying = start_command({EJ_BINARY, "try", "new weights", "--plan", "p"}, options);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Meanwhile another writer gets in, though it waits at most 2 s for the lock: enough for ej try's
  // own short write on a loaded machine, not for a diff of 200 MB made under the lock there.
  const auto note = repo.ej({"plan", "new", "q", "--title", "Another"}, {{"EJ_BUSY_TIMEOUT_MS", "2000"}});
  const bool try_still_running = ::kill(trying, 0) == 0;
  CHECK(wait_command(trying) == 0);
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(note.err);
  CHECK(note.exit_code == 0);
  INFO("ej try took " << std::chrono::duration<double>(took).count() << " s");
  if (!try_still_running) {
    WARN("the diff was computed in under 300 ms here: the writer did not overlap it");
  }
  CHECK(json::parse(repo.ok({"show", "1", "--json"}))["git"]["dirty"] == true);
}

TEST_CASE("a file written while ej reads the work tree is read again, and said plainly if it never settles")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  // Many changed files between the growing log's sizing and its reading (libgit2 sizes every file
  // for the diff, then reads them one by one for the patch): its size changes in between.
  std::filesystem::create_directories(repo.path() / "src");
  for (int i = 0; i < 1500; ++i) {
    write_text(repo.path() / "src" / ("f" + std::to_string(i)), "one\n");
  }
  write_text(repo.path() / "train.log", "start\n");
  git(repo.path(), {"add", "-A"});
  git(repo.path(), {"commit", "-q", "-m", "files"});
  for (int i = 0; i < 1500; ++i) {
    write_text(repo.path() / "src" / ("f" + std::to_string(i)), "two\n");
  }
  CommandOptions options;
  options.cwd = repo.path();

  // Written for good: every read races it; said, with what to do, and nothing recorded.
  const int writer = start_command({"sh", "-c", "while :; do echo line >> train.log; done"}, options);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto racing = repo.ej({"try", "while the log grows", "--plan", "p"});
  ::kill(writer, SIGKILL);
  wait_command(writer);
  INFO(racing.err);
  CHECK(racing.err.find("git: cannot print") == std::string::npos); // libgit2's bare error, before
  if (racing.exit_code != 0) {
    CHECK_THAT(racing.err, Catch::Contains("files kept changing while ej read them") &&
                               Catch::Contains("add what it writes to .gitignore"));
  } else {
    WARN("ej read the work tree between two writes of the log: the race was not met here");
  }

  // Written for a moment: a later read is whole, and the attempt is recorded.
  const int brief_writer =
      start_command({"timeout", "0.15", "sh", "-c", "while :; do echo line >> train.log; done"}, options);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto settled = repo.ej({"try", "after a moment of writing", "--plan", "p"});
  wait_command(brief_writer);
  INFO(settled.err);
  REQUIRE(settled.exit_code == 0);
  const auto shown = json::parse(repo.ok({"show", "--json", "--diff", racing.exit_code == 0 ? "2" : "1"}));
  CHECK_THAT(shown["diff"].get<std::string>(), Catch::Contains("+two") && Catch::Contains("train.log"));
}
