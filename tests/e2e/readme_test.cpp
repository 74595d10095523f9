// README.md's examples run as written: every shell block marked "replayed by
// tests/e2e/readme_test.cpp" is run, in order, in a fresh git repository with the built ej first
// on PATH, and what its "# prints X" comments promise must be printed.
#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace ej::test;

namespace {

const char* const k_marker = "<!-- replayed by tests/e2e/readme_test.cpp -->";

// The ```sh block after each marker.
std::vector<std::string> marked_blocks(const std::string& readme)
{
  std::vector<std::string> blocks;
  for (auto at = readme.find(k_marker); at != std::string::npos; at = readme.find(k_marker, at + 1)) {
    const auto open = readme.find("\n```sh\n", at);
    REQUIRE(open != std::string::npos);
    const auto start = open + 7;
    const auto close = readme.find("\n```\n", start - 1);
    REQUIRE(close != std::string::npos);
    blocks.push_back(readme.substr(start, close + 1 - start));
  }
  return blocks;
}

// "#1" from "...   # prints #1", for every such comment.
std::vector<std::string> promised_output(const std::string& script)
{
  std::vector<std::string> out;
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("# prints ");
    if (at != std::string::npos) {
      out.push_back(line.substr(at + 9));
    }
  }
  return out;
}

} // namespace

TEST_CASE("README's first session runs as written in a fresh repository and prints what it says")
{
  const auto readme = read_text(std::filesystem::path(EJ_SOURCE_DIR) / "README.md");
  const auto blocks = marked_blocks(readme);
  REQUIRE(!blocks.empty());
  std::string script = "set -euo pipefail\n";
  for (const auto& block : blocks) {
    script += block;
  }
  const auto promises = promised_output(script);
  CHECK(promises.size() >= 2);

  TempDir dir("ej-readme");
  const auto repo = dir / "project";
  make_git_repo(repo);
  write_text(dir / "session.sh", script);
  CommandOptions options;
  options.cwd = repo;
  options.env["PATH"] = std::filesystem::path(EJ_BINARY).parent_path().string() + ":/usr/bin:/bin";
  options.env["HOME"] = dir.path().string();
  const auto result = run_command({"bash", (dir / "session.sh").string()}, options);
  INFO("script:\n" << script << "\nstdout:\n" << result.out << "\nstderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  for (const auto& promise : promises) {
    INFO("promised: " << promise);
    CHECK((result.out + result.err).find(promise) != std::string::npos);
  }
  // What the session wrote, where it says.
  CHECK(std::filesystem::exists(repo / "journal" / "eagle-fast-verify.md"));
  CHECK(std::filesystem::exists(repo / "report.html"));
}
