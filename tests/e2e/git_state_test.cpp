// The code state an attempt records: submodules with changes, and a large diff that must not
// hold the journal's write lock while it is computed.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
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
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  {
    std::ofstream big(repo.path() / "weights.bin", std::ios::binary);
    std::string block(1 << 20, '\0');
    for (int i = 0; i < 60; ++i) {
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
    for (int i = 0; i < 60; ++i) {
      big.seekp(static_cast<std::streamoff>(i) << 20);
      big.write("changed", 7);
    }
  }
  CommandOptions options;
  options.cwd = repo.path();
  const auto started = std::chrono::steady_clock::now();
  const int trying = start_command({EJ_BINARY, "try", "new weights", "--plan", "p"}, options);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Meanwhile another writer gets in at once, though it waits at most 500 ms for the lock.
  const auto note = repo.ej({"plan", "new", "q", "--title", "Another"}, {{"EJ_BUSY_TIMEOUT_MS", "500"}});
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
