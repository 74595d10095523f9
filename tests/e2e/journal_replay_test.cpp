// ej's own performance journal (journal/): replay.sh must reproduce the committed plan document
// and chart byte for byte from the facts the script records, so the document stays re-renderable
// from a clone although the journal it was first rendered from is gone.
#include "render/markdown_check.h"
#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

using ej::test::read_text;
using ej::test::run_command;
using ej::test::TempDir;

namespace {

const std::filesystem::path k_journal_dir = EJ_SOURCE_DIR "/journal";
const char* const k_hint = "regenerate with journal/replay.sh build/release/ej journal";

} // namespace

TEST_CASE("journal/replay.sh reproduces the committed ej-performance document and chart byte for byte")
{
  TempDir dir("ej-journal-replay");
  const auto out = dir / "out";
  const auto result = run_command({"bash", (k_journal_dir / "replay.sh").string(), EJ_BINARY, out.string()});
  INFO("stdout: " << result.out << "\nstderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  for (const std::string name : {"ej-performance.md", "ej-performance.svg", "ej-performance-progress.svg"}) {
    INFO(name << " differs from the committed one; if the change is intended, " << k_hint);
    CHECK(read_text(out / name) == read_text(k_journal_dir / name));
  }
}

TEST_CASE("the ej-performance document holds every attempt with its status and its imported figures")
{
  const auto markdown = read_text(k_journal_dir / "ej-performance.md");
  const std::vector<std::vector<std::string>>* summary = nullptr;
  const auto tables = ej::render::parse_markdown_tables(markdown);
  for (const auto& table : tables) {
    if (!table.empty() && table.front().size() > 3 && table.front()[1] == "attempt" &&
        table.front()[2] == "status") {
      summary = &table;
    }
  }
  REQUIRE(summary != nullptr);
  REQUIRE(summary->size() == 24); // the header and 23 attempts
  std::map<std::string, std::string> statuses;
  std::map<std::string, std::string> medians;
  for (std::size_t i = 1; i < summary->size(); ++i) {
    const auto& row = (*summary)[i];
    REQUIRE(row.size() >= 5);
    statuses[row[0]] = row[2];
    medians[row[0]] = row[3];
  }
  CHECK(statuses["1"] == "adopted");
  CHECK(statuses["3"] == "inconclusive");
  CHECK(statuses["4"] == "rejected");
  CHECK(statuses["6"] == "superseded");
  CHECK(statuses["10"] == "inconclusive");
  CHECK(statuses["14"] == "adopted");
  CHECK(statuses["15"] == "adopted");      // issue 16: static linking
  CHECK(statuses["16"] == "adopted");      // issue 16: search newest first
  CHECK(statuses["17"] == "inconclusive"); // issue 16: large plans attempt by attempt, over 2 s
  CHECK(statuses["18"] == "adopted");      // issue 16: the large plan under 2 s
  CHECK(statuses["22"] == "adopted");      // issue 16: kept verdict lines
  CHECK(statuses["23"] == "adopted");      // issue 16: the repeat cost under hyperfine's
  CHECK(medians["6"] == "2939");
  CHECK(medians["14"] == "172.6");
  // Every run is imported, and the document says how it was made.
  CHECK(markdown.find(", finished)") == std::string::npos);
  CHECK(markdown.find("replayed by `journal/replay.sh`") != std::string::npos);
  CHECK(markdown.find("created at ej commit 7c2e2595d2") != std::string::npos);
}

TEST_CASE("journal/replay.sh fails clearly when the ej binary is missing")
{
  TempDir dir("ej-journal-replay");
  const auto result = run_command(
      {"bash", (k_journal_dir / "replay.sh").string(), (dir / "no-ej").string(), (dir / "out").string()});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("missing") != std::string::npos);
}
