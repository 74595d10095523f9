// ej plan render, ej report and ej record, end to end: the real binary in scratch repositories.
#include "render/markdown_check.h"
#include "support/browser.h"
#include "support/ej_repo.h"
#include "support/sanitized.h"
#include "support/skip.h"
#include "util/strings.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cstdlib>
#include <random>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace ej::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Root reads and writes any file; without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH a file's
// permissions bind it as they bind a user. setpriv drops them from the bounding set of what it runs.
const std::vector<std::string> k_without_file_capabilities{"setpriv", "--bounding-set",
                                                           "-dac_override,-dac_read_search"};

// Whether ej can be run here so that a file's permissions bind it: as a user, or as root without
// those capabilities (setpriv present, and allowed to drop them in this container).
bool permissions_bind_ej()
{
  if (::geteuid() != 0) {
    return true;
  }
  auto argv = k_without_file_capabilities;
  argv.emplace_back("true");
  return run_command(argv).exit_code == 0;
}

// ej, bound by file permissions even as root (see permissions_bind_ej).
CommandResult ej_bound_by_permissions(const EjRepo& repo, const std::vector<std::string>& args)
{
  if (::geteuid() != 0) {
    return repo.ej(args);
  }
  auto argv = k_without_file_capabilities;
  argv.push_back(EJ_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  CommandOptions options;
  options.cwd = repo.path();
  options.env = {{"NO_COLOR", "1"}};
  return run_command(argv, options);
}

// "region=hash" of every region ej last wrote into doc, as the journal keeps them.
std::vector<std::string> region_hashes(const EjRepo& repo, const std::string& doc)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(repo.db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(
              db, "SELECT region || '=' || hash FROM document_regions WHERE doc = ? ORDER BY region", -1,
              &statement, nullptr) == SQLITE_OK);
  sqlite3_bind_text(statement, 1, doc.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<std::string> out;
  while (sqlite3_step(statement) == SQLITE_ROW) {
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return out;
}

using Tables = std::vector<std::vector<std::vector<std::string>>>;

// A plan with one attempt in every status group, real runs on both sides of a toolkit upgrade, an
// imported run, notes, a command, a blocker that was since resolved and a moved baseline.
void make_campaign(const EjRepo& repo)
{
  repo.ok({"plan", "new", "eagle", "--title", "EAGLE-3 fast verify", "--goal", "verify pass under 15 ms",
           "--target", "x < 15"});
  write_text(repo.path() / "toolkit.txt", "cuda 12.8\n");
  write_text(repo.path() / "value.txt", "20\n");
  repo.ok({"env", "probe", "add", "toolkit", "--", "cat", (repo.path() / "toolkit.txt").string()});
  repo.ok({"bench", "add", "verify", "--metric", "x=regex:x=([0-9.]+)", "--", "sh", "-c",
           "echo x=$(cat " + (repo.path() / "value.txt").string() + ")"});
  repo.ok({"try", "baseline build", "--plan", "eagle"});                    // #1
  repo.ok({"run", "verify", "--attempt", "1", "--repeat", "4", "--quiet"}); // run #1
  repo.ok({"plan", "baseline", "eagle", "--run", "1"});
  repo.ok({"try", "FlashInfer allreduce fusion", "--plan", "eagle", "--hypothesis", "fewer kernel launches",
           "--command", "python bench.py --fusion | tee out.txt"});         // #2
  repo.ok({"run", "verify", "--attempt", "2", "--repeat", "4", "--quiet"}); // run #2
  repo.ok({"status", "2", "rejected", "--reason", "no gain on PCIe"});
  repo.ok({"note", "2", "tried twice, same figure"});
  repo.ok({"try", "CUDA 13 upgrade", "--plan", "eagle", "--hypothesis", "newer toolkit"}); // #3
  repo.ok({"try", "Torch symmetric memory", "--plan", "eagle", "--blocked-by", "3"});      // #4
  repo.ok({"status", "4", "blocked", "--reason", "needs CUDA 13"});
  repo.ok({"try", "smaller cuda-graph-max-bs", "--plan", "eagle"}); // #5
  repo.ok({"status", "5", "inconclusive", "--reason", "within noise"});
  repo.ok({"try", "expert parallelism", "--plan", "eagle", "--hypothesis", "spread the experts"}); // #6
  write_text(repo.path() / "toolkit.txt", "cuda 13.0\n");
  write_text(repo.path() / "value.txt", "12\n");
  repo.ok({"run", "verify", "--attempt", "3", "--repeat", "4", "--quiet"}); // run #3
  repo.ok({"status", "3", "adopted", "--reason", "verify 12 ms"});
  repo.ok({"plan", "baseline", "eagle", "--run", "3", "--reason", "CUDA 12.8 -> 13.0 upgrade"});
  repo.ok({"record", "5", "--bench", "verify", "--samples", "x=13,14,13.5", "--when", "2024-05-01",
           "--source", "colleague's laptop"}); // run #4
}

std::string render(const EjRepo& repo, const std::string& slug = "eagle")
{
  repo.ok({"plan", "render", slug});
  return read_text(repo.path() / "journal" / (slug + ".md"));
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

// The text of the section under a "## NAME" heading, up to the next "## ".
std::string section(const std::string& document, const std::string& heading)
{
  const auto start = document.find("\n## " + heading + "\n");
  if (start == std::string::npos) {
    return "";
  }
  const auto end = document.find("\n## ", start + 1);
  return document.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The table whose header row starts with `first`.
std::vector<std::vector<std::string>> table_starting(const Tables& tables, const std::string& first)
{
  for (const auto& table : tables) {
    if (!table.empty() && !table[0].empty() && table[0][0] == first) {
      return table;
    }
  }
  return {};
}

const char* const k_template_all_regions =
    "<!-- ej:begin title -->\n# {{plan.title}}\n<!-- ej:end title -->\n";

} // namespace

TEST_CASE("ej plan render writes journal/SLUG.md with every part of the plan and a chart linked beside it")
{
  EjRepo repo;
  make_campaign(repo);
  const auto out = repo.ok({"plan", "render", "eagle"});
  CHECK_THAT(out, Catch::Contains("journal/eagle.md"));
  const auto doc = read_text(repo.path() / "journal" / "eagle.md");
  const auto svg = read_text(repo.path() / "journal" / "eagle.svg");
  CHECK_THAT(svg, Catch::StartsWith("<svg"));
  CHECK(contains(doc, "](eagle.svg)")); // relative to the document, so it works on any forge

  const auto headings = ej::render::parse_markdown_headings(doc);
  for (const auto* expected :
       {"EAGLE-3 fast verify", "Summary", "Adopted", "Rejected", "Blocked", "Inconclusive", "Open",
        "Environment changes between baselines", "Decisions"}) {
    INFO(expected);
    CHECK(std::find(headings.begin(), headings.end(), expected) != headings.end());
  }
  CHECK(contains(doc, "verify pass under 15 ms"));
  CHECK(contains(doc, "**Target:** x < 15, met by #3, #5.")); // nothing escaped that means nothing
  CHECK(contains(doc, "**Baseline:** run #3"));

  const auto tables = ej::render::parse_markdown_tables(doc);
  // The baseline's history: a list, whose reasons do not squeeze dates and numbers in a table.
  const auto paragraphs = ej::render::parse_markdown_paragraphs(doc);
  const auto has_paragraph = [&](const std::string& text) {
    return std::any_of(paragraphs.begin(), paragraphs.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  CHECK(has_paragraph(": run #1 of verify, 20.00"));
  CHECK(has_paragraph(": run #1 → run #3 of verify, 12.00: CUDA 12.8 -> 13.0 upgrade"));

  const auto summary = table_starting(tables, "#");
  REQUIRE(summary.size() == 7);
  const auto column = [&](const std::string& name) {
    const auto& header = summary[0];
    const auto at = std::find(header.begin(), header.end(), name);
    REQUIRE(at != header.end());
    return static_cast<std::size_t>(at - header.begin());
  };
  CHECK(summary[0][3] == "x"); // the metric, its unit (none here) in the header, never in the cells
  CHECK(summary[2][1] == "FlashInfer allreduce fusion");
  CHECK(summary[2][2] == "rejected");
  CHECK(summary[3][2] == "adopted");
  CHECK(summary[3][3] == "12.00");
  CHECK(summary[3][column("target")] == "yes");
  // The commit that was measured: the run's, 7 characters.
  const auto head = git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 7);
  CHECK(summary[3][column("commit")].substr(0, 7) == head);

  const auto adopted = section(doc, "Adopted");
  CHECK(contains(adopted, "### #3 CUDA 13 upgrade"));
  CHECK(contains(adopted, "verify 12 ms"));
  CHECK(contains(adopted, "newer toolkit"));
  const auto rejected = section(doc, "Rejected");
  CHECK(contains(rejected, "### #2 FlashInfer allreduce fusion"));
  CHECK(contains(rejected, "**Status:** rejected: no gain on PCIe"));
  CHECK(contains(rejected, "**Hypothesis:** fewer kernel launches"));
  CHECK(contains(rejected, "| x | 20.00 | 20.00 | 0.0% | [0.0%, 0.0%] |")); // its evidence, once
  CHECK(contains(rejected, "```sh\npython bench.py --fusion | tee out.txt\n```"));
  CHECK(contains(rejected, "- run #2 ("));
  CHECK(contains(rejected, "tried twice, same figure"));
  const auto blocked = section(doc, "Blocked");
  CHECK(contains(blocked, "needs CUDA 13"));
  CHECK(contains(blocked, "**Blocked by:** #3 CUDA 13 upgrade (adopted: resolved"));
  CHECK(contains(section(doc, "Inconclusive"), "within noise"));
  CHECK(contains(section(doc, "Inconclusive"), "imported: colleague's laptop"));
  CHECK(contains(section(doc, "Open"), "### #6 expert parallelism"));

  const auto environment = section(doc, "Environment changes between baselines");
  CHECK(contains(environment, "From run #1 to run #3"));
  CHECK(contains(environment, "cuda 13.0"));

  CHECK(has_paragraph("#4 Torch symmetric memory: blocked (needs CUDA 13)"));
  CHECK(has_paragraph("#3 CUDA 13 upgrade unblocked #4 (not tried again yet)."));
  // The summary and the evidence of the three judged attempts: everything else reads as lists and
  // paragraphs.
  CHECK(tables.size() == 4);
}

TEST_CASE("the --out option writes the document elsewhere in the repository and --stdout prints it and "
          "writes nothing")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan P"});
  repo.ok({"try", "first", "--plan", "p"});
  const auto printed = repo.ok({"plan", "render", "p", "--stdout"});
  CHECK_THAT(printed, Catch::Contains("# Plan P"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
  CHECK(region_hashes(repo, "journal/p.md").empty());

  repo.ok({"plan", "render", "p", "--out", "docs/plans/p-notes.md"});
  CHECK(read_text(repo.path() / "docs" / "plans" / "p-notes.md") == printed);
  CHECK(fs::exists(repo.path() / "docs" / "plans" / "p-notes.svg"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("text outside the generated regions survives every regeneration byte for byte")
{
  EjRepo repo;
  make_campaign(repo);
  const auto first = render(repo);
  const auto regions = region_hashes(repo, "journal/eagle.md");
  REQUIRE(regions.size() == 10);

  // The author's text: before the first region, between every two, CRLF lines, and a last line
  // without a newline.
  const std::string before = "Intro by the author.\r\nSecond line, CRLF.\r\n\r\n";
  const std::string between = "\n> a quote | with a pipe\n\n";
  const std::string after = "\n## Author's appendix\n\ntrailing text without newline";
  std::string edited = before + first;
  // The end marker carries the region's hash (docs/documents.md): the line ends with " -->".
  auto pos = edited.find("<!-- ej:end summary ");
  REQUIRE(pos != std::string::npos);
  const auto summary_end = edited.substr(pos, edited.find('\n', pos) + 1 - pos);
  REQUIRE_THAT(summary_end, Catch::EndsWith(" -->\n"));
  edited.insert(pos + summary_end.size(), between);
  edited += after;
  write_text(repo.path() / "journal" / "eagle.md", edited);

  // The journal changes, and the document is rendered again twice.
  repo.ok({"try", "NCCL_ALGO=Tree", "--plan", "eagle"});
  repo.ok({"status", "7", "rejected", "--reason", "slower"});
  const auto second = render(repo);
  CHECK(second.substr(0, before.size()) == before);
  CHECK(contains(second, "<!-- ej:end summary hash=")); // every end marker carries its region's hash
  const auto second_end = second.find("<!-- ej:end summary ");
  CHECK(second.substr(second.find('\n', second_end) + 1, between.size() + 26) ==
        between + "\n<!-- ej:begin adopted -->");
  CHECK_THAT(second, Catch::EndsWith(after));
  CHECK(contains(second, "NCCL_ALGO=Tree"));
  CHECK(render(repo) == second);

  // What is outside the regions is exactly what the author wrote.
  const auto outside = [](const std::string& text) {
    std::string kept;
    std::size_t at = 0;
    while (true) {
      const auto begin = text.find("<!-- ej:begin ", at);
      kept += text.substr(at, begin == std::string::npos ? std::string::npos : begin - at);
      if (begin == std::string::npos) {
        return kept;
      }
      const auto end = text.find("<!-- ej:end ", begin);
      at = text.find("-->", end) + 3;
    }
  };
  CHECK(outside(second) == outside(edited));
}

TEST_CASE("a region the template no longer has is left alone with a warning")
{
  EjRepo repo;
  make_campaign(repo);
  const auto first = render(repo);
  const auto tmpl = repo.path() / "only-title.mustache";
  write_text(tmpl, k_template_all_regions);
  repo.ok({"plan", "new", "eagle2", "--title", "unused"}); // the journal changes: the title would not
  const auto result = repo.ej({"plan", "render", "eagle", "--template", tmpl.string()});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("warning"));
  CHECK_THAT(result.err, Catch::Contains("summary"));
  CHECK(read_text(repo.path() / "journal" / "eagle.md") == first);
}

TEST_CASE("a region edited by hand is not overwritten without --force, and the error names it")
{
  EjRepo repo;
  make_campaign(repo);
  const auto first = render(repo);
  auto edited = first;
  const auto at = edited.find("## Decisions\n"); // the timeline region's heading
  REQUIRE(at != std::string::npos);
  edited.insert(at + 13, "\nA hand-written line inside the timeline.\n");
  write_text(repo.path() / "journal" / "eagle.md", edited);
  repo.ok({"note", "2", "one more note"});

  const auto refused = repo.ej({"plan", "render", "eagle"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("timeline"));
  CHECK_THAT(refused.err, Catch::Contains("--force"));
  CHECK_FALSE(contains(refused.err, "overview"));
  CHECK(read_text(repo.path() / "journal" / "eagle.md") == edited);

  const auto forced = repo.ej({"plan", "render", "eagle", "--force"});
  CHECK(forced.exit_code == 0);
  const auto now = read_text(repo.path() / "journal" / "eagle.md");
  CHECK_FALSE(contains(now, "A hand-written line"));
  CHECK(contains(now, "one more note"));
  CHECK(repo.ok({"plan", "render", "eagle"}) != ""); // the hashes were updated: no --force needed now
}

TEST_CASE("the same journal renders byte-identical files, also after ej reindex")
{
  EjRepo repo;
  make_campaign(repo);
  const auto doc = render(repo);
  const auto svg = read_text(repo.path() / "journal" / "eagle.svg");
  CHECK(render(repo) == doc);
  CHECK(read_text(repo.path() / "journal" / "eagle.svg") == svg);
  repo.ok({"reindex"});
  CHECK(render(repo) == doc);
  CHECK(read_text(repo.path() / "journal" / "eagle.svg") == svg);
  CHECK(repo.ok({"plan", "render", "eagle", "--stdout"}) == doc);
}

namespace {

// The stamp every write to the journal changes (store/wal_ownership.h).
std::string journal_stamp(const EjRepo& repo)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(repo.db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT stamp FROM wal_stamp", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  std::string stamp = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return stamp;
}

} // namespace

TEST_CASE("a render of what the journal already keeps writes the files again and nothing to the journal")
{
  EjRepo repo;
  make_campaign(repo);
  const auto doc = render(repo);
  const auto hashes = region_hashes(repo, "journal/eagle.md");
  const auto stamp = journal_stamp(repo);
  fs::remove(repo.path() / "journal" / "eagle.svg");
  CHECK(render(repo) == doc);
  CHECK(fs::exists(repo.path() / "journal" / "eagle.svg"));
  CHECK(journal_stamp(repo) == stamp); // no commit: the same hashes and verdict lines
  CHECK(region_hashes(repo, "journal/eagle.md") == hashes);
  // A change to the plan changes its lines and regions: written.
  repo.ok({"status", "6", "rejected", "--reason", "slower"});
  const auto moved = journal_stamp(repo);
  CHECK(render(repo) != doc);
  CHECK(journal_stamp(repo) != moved);
  CHECK(region_hashes(repo, "journal/eagle.md") != hashes);
}

TEST_CASE("plan render --check exits 0 when the document is up to date, 1 when not, and never writes")
{
  EjRepo repo;
  make_campaign(repo);
  const auto doc_path = repo.path() / "journal" / "eagle.md";
  const auto svg_path = repo.path() / "journal" / "eagle.svg";

  auto missing = repo.ej({"plan", "render", "eagle", "--check"});
  CHECK(missing.exit_code == 1);
  CHECK_FALSE(fs::exists(doc_path));
  CHECK_FALSE(fs::exists(svg_path));

  const auto doc = render(repo);
  const auto svg = read_text(svg_path);
  const auto hashes = region_hashes(repo, "journal/eagle.md");
  CHECK(repo.ej({"plan", "render", "eagle", "--check"}).exit_code == 0);

  repo.ok({"status", "6", "rejected", "--reason", "slower"}); // the journal moves on
  auto stale = repo.ej({"plan", "render", "eagle", "--check"});
  CHECK(stale.exit_code == 1);
  CHECK_THAT(stale.out, Catch::Contains("ej plan render eagle"));
  CHECK(read_text(doc_path) == doc);
  CHECK(read_text(svg_path) == svg);
  CHECK(region_hashes(repo, "journal/eagle.md") == hashes);

  render(repo);
  CHECK(repo.ej({"plan", "render", "eagle", "--check"}).exit_code == 0);
  write_text(svg_path, "<svg></svg>");
  CHECK(repo.ej({"plan", "render", "eagle", "--check"}).exit_code == 1);
  CHECK(read_text(svg_path) == "<svg></svg>");
  fs::remove(svg_path);
  CHECK(repo.ej({"plan", "render", "eagle", "--check"}).exit_code == 1);
  CHECK_FALSE(fs::exists(svg_path));
}

TEST_CASE(
    "every table cell holds exactly the journal's text, for many titles and reasons full of markdown syntax")
{
  EjRepo repo;
  repo.ok({"plan", "new", "esc", "--title", "Escapes"});
  const std::vector<std::string> alphabet = {"|",   "`",     "*", "_",  "[", "]", "<", ">",
                                             "<b>", "&amp;", "#", "\\", "~", "!", "(", ")",
                                             "\n",  "a",     "b", "1",  " ", "-", "=", "&"};
  std::mt19937 random(20240501);
  const auto generate = [&] {
    std::string text = random() % 4 == 0 ? "#" : "";
    const auto length = 1 + random() % 12;
    for (std::size_t i = 0; i < length; ++i) {
      text += alphabet[random() % alphabet.size()];
    }
    text += "z"; // no empty or blank value (ej refuses or trims those)
    return text;
  };
  // What a cell shows: every line break becomes one space.
  const auto as_cell = [](std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
  };
  std::vector<std::string> titles;
  const int attempts = full_or_sanitized(200, 40);
  for (int i = 1; i <= attempts; ++i) {
    titles.push_back(generate());
    // "--" and "--reason=" so that text starting with '-' is not read as an option
    repo.ok({"try", "--plan", "esc", "--", titles.back()});
    repo.ok({"status", std::to_string(i), i % 2 ? "rejected" : "blocked", "--reason=" + generate()});
  }
  // The journal's values, as ej stored them.
  std::map<int, json> stored;
  for (const auto& attempt : json::parse(repo.ok({"log", "--plan", "esc", "--json"}))) {
    stored[attempt["number"].get<int>()] = attempt;
  }
  REQUIRE(stored.size() == static_cast<std::size_t>(attempts));
  const auto doc = render(repo, "esc");
  const auto tables = ej::render::parse_markdown_tables(doc);
  const auto summary = table_starting(tables, "#");
  REQUIRE(summary.size() == static_cast<std::size_t>(attempts) + 1);
  const auto paragraphs = ej::render::parse_markdown_paragraphs(doc);
  const std::set<std::string> timeline(paragraphs.begin(), paragraphs.end());
  const auto today =
      json::parse(repo.ok({"log", "--plan", "esc", "--json"}))[0]["created"].get<std::string>().substr(0, 10);
  for (int i = 1; i <= attempts; ++i) {
    const auto title = stored[i]["title"].get<std::string>();
    const auto reason = stored[i]["reason"].get<std::string>();
    INFO("attempt " << i << " title " << json(title).dump() << " reason " << json(reason).dump());
    CHECK(title == titles[static_cast<std::size_t>(i - 1)]); // ej kept the text as given
    const auto& row = summary[static_cast<std::size_t>(i)];
    REQUIRE(row.size() == summary[0].size());
    CHECK(row[0] == std::to_string(i));
    CHECK(row[1] == as_cell(title));
    // Its entry in the decisions, a list item.
    const auto entry = today + " #" + std::to_string(i) + " " + as_cell(title) + ": " +
                       stored[i]["status"].get<std::string>() + " (" + as_cell(reason) + ")";
    CHECK(timeline.count(entry) == 1);
  }
}

TEST_CASE("a user template renders the documented data")
{
  EjRepo repo;
  make_campaign(repo);
  const auto tmpl = repo.path() / "mine.mustache";
  write_text(tmpl, "<!-- ej:begin mine -->\n"
                   "plan={{plan.slug}} title={{plan.title}} metric={{primary.metric}} "
                   "attempts={{attempt_count}} baseline=#{{baseline.current.run}}\n"
                   "{{#summary}}\n- {{number}} {{status}} {{median}}\n{{/summary}}\n"
                   "{{#groups}}\n{{key}}={{count}}\n{{/groups}}\n"
                   "chart={{chart.file}}\n"
                   "<!-- ej:end mine -->\n");
  repo.ok({"plan", "render", "eagle", "--template", tmpl.string(), "--out", "mine.md"});
  const auto doc = read_text(repo.path() / "mine.md");
  CHECK(contains(doc, "plan=eagle title=EAGLE-3 fast verify metric=x attempts=6 baseline=#3\n"));
  CHECK(contains(doc, "- 3 adopted 12.00\n"));
  CHECK(contains(doc, "adopted=1\nrejected=1\nblocked=1\ninconclusive=1\nopen=2\n"));
  CHECK(contains(doc, "chart=mine.svg\n"));
}

TEST_CASE("a template with a syntax error is refused with its line, and nothing is written")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const auto tmpl = repo.path() / "broken.mustache";
  write_text(tmpl, "# {{plan.title}}\n\n{{#summary}}\n- {{number}}\n");
  const auto result = repo.ej({"plan", "render", "p", "--template", tmpl.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("broken.mustache"));
  CHECK_THAT(result.err, Catch::Contains("line 3"));
  CHECK_THAT(result.err, Catch::Contains("summary"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("a missing or unreadable template is a clear error")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const auto missing = repo.ej({"plan", "render", "p", "--template", "nope.mustache"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("nope.mustache"));
  CHECK_THAT(missing.err, Catch::Contains("does not exist"));

  const auto directory = repo.ej({"plan", "render", "p", "--template", repo.path().string()});
  CHECK(directory.exit_code == 1);
  CHECK_THAT(directory.err, Catch::StartsWith("ej: error:"));

  const auto report = repo.ej({"report", "p", "--html", "r.html", "--template", "nope.mustache"});
  CHECK(report.exit_code == 1);
  CHECK_THAT(report.err, Catch::Contains("nope.mustache"));
  CHECK_FALSE(fs::exists(repo.path() / "r.html"));

  if (!permissions_bind_ej()) {
    EJ_SKIP_NOT_APPLICABLE("the unreadable template: running as root, which reads any file, and setpriv "
                           "cannot drop CAP_DAC_OVERRIDE here");
  }
  const auto tmpl = repo.path() / "secret.mustache";
  write_text(tmpl, k_template_all_regions);
  fs::permissions(tmpl, fs::perms::none);
  const auto unreadable = ej_bound_by_permissions(repo, {"plan", "render", "p", "--template", tmpl.string()});
  CHECK(unreadable.exit_code == 1);
  CHECK_THAT(unreadable.err, Catch::Contains("secret.mustache"));
  fs::permissions(tmpl, fs::perms::owner_read | fs::perms::owner_write);
}

TEST_CASE("a document path outside the repository or inside .ej or .git is refused")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  for (const auto* path :
       {"../outside.md", "/tmp/ej-outside.md", ".ej/p.md", ".git/p.md", "journal/../../x.md"}) {
    INFO(path);
    const auto result = repo.ej({"plan", "render", "p", "--out", path});
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("--out"));
  }
  CHECK_FALSE(fs::exists(repo.path().parent_path() / "outside.md"));
  CHECK_FALSE(fs::exists("/tmp/ej-outside.md"));
  CHECK_FALSE(fs::exists(repo.path() / ".ej" / "p.md"));
}

TEST_CASE("a document that is a directory or read-only is a clear error")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  fs::create_directories(repo.path() / "journal" / "p.md");
  const auto directory = repo.ej({"plan", "render", "p"});
  CHECK(directory.exit_code == 1);
  CHECK_THAT(directory.err, Catch::Contains("p.md"));
  CHECK_THAT(directory.err, Catch::Contains("directory"));
  CHECK(fs::is_directory(repo.path() / "journal" / "p.md"));
  CHECK_FALSE(fs::exists(repo.path() / "journal" / "p.svg"));

  const auto report = repo.ej({"report", "p", "--html", (repo.path() / "journal").string()});
  CHECK(report.exit_code == 1);
  CHECK_THAT(report.err, Catch::Contains("directory"));

  if (!permissions_bind_ej()) {
    EJ_SKIP_NOT_APPLICABLE("the read-only document: running as root, which writes any file, and setpriv "
                           "cannot drop CAP_DAC_OVERRIDE here");
  }
  fs::remove(repo.path() / "journal" / "p.md");
  write_text(repo.path() / "journal" / "p.md", "mine\n");
  fs::permissions(repo.path() / "journal" / "p.md", fs::perms::owner_read);
  const auto readonly = ej_bound_by_permissions(repo, {"plan", "render", "p"});
  CHECK(readonly.exit_code == 1);
  CHECK_THAT(readonly.err, Catch::Contains("read-only"));
  CHECK(read_text(repo.path() / "journal" / "p.md") == "mine\n");
}

TEST_CASE("a plan with no attempts and no baseline renders clearly, with no empty table")
{
  EjRepo repo;
  repo.ok({"plan", "new", "empty", "--title", "Nothing yet"});
  const auto doc = render(repo, "empty");
  CHECK(contains(doc, "none pinned yet"));
  CHECK(contains(doc, "No attempts yet"));
  // No empty sections: no heading over nothing ("None.", "Nothing has happened yet.").
  const auto headings = ej::render::parse_markdown_headings(doc);
  CHECK(headings == std::vector<std::string>{"Nothing yet", "Summary"});
  CHECK_FALSE(contains(doc, "None."));
  // Kept for later renders, with the hash of nothing (SHA-256 of "", its first 16 hex digits).
  CHECK(contains(doc, "<!-- ej:begin timeline -->\n<!-- ej:end timeline hash=e3b0c44298fc1c14 -->"));
  CHECK(ej::render::parse_markdown_tables(doc).empty());
  CHECK_FALSE(contains(doc, "|---"));

  // Attempts but no baseline and no runs: tables only with rows.
  repo.ok({"try", "an idea", "--plan", "empty"});
  const auto second = render(repo, "empty");
  for (const auto& table : ej::render::parse_markdown_tables(second)) {
    CHECK(table.size() > 1);
  }
  CHECK(contains(second, "none pinned yet"));
}

TEST_CASE("unterminated or nested region markers in the document are a clear error and leave it untouched")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const auto doc_path = repo.path() / "journal" / "p.md";
  const auto first = render(repo, "p");
  const std::vector<std::pair<std::string, std::string>> broken = {
      {"unterminated", "intro\n<!-- ej:begin notes -->\nnever ended\n" + first},
      {"nested",
       "<!-- ej:begin outer -->\n<!-- ej:begin inner -->\nx\n<!-- ej:end inner -->\n<!-- ej:end outer -->\n" +
           first},
      {"end without begin", first + "<!-- ej:end stray -->\n"},
  };
  for (const auto& [what, text] : broken) {
    INFO(what);
    write_text(doc_path, text);
    const auto result = repo.ej({"plan", "render", "p"});
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("line"));
    CHECK_THAT(result.err, Catch::Contains("p.md"));
    CHECK(read_text(doc_path) == text);
    CHECK(repo.ej({"plan", "render", "p", "--force"}).exit_code == 1);
    CHECK(read_text(doc_path) == text);
  }
}

TEST_CASE("imported runs are marked imported with their source in show, runs, compare and the document")
{
  EjRepo repo;
  make_campaign(repo);
  const auto shown = repo.ok({"show", "run", "4"});
  CHECK_THAT(shown, Catch::Contains("imported"));
  CHECK_THAT(shown, Catch::Contains("colleague's laptop"));
  const auto runs = repo.ok({"runs"});
  const auto line = runs.substr(runs.find("run #4"));
  CHECK_THAT(line.substr(0, line.find('\n')), Catch::Contains("imported"));
  CHECK_THAT(runs, Catch::Contains("colleague's laptop"));
  const auto compared = repo.ej({"compare", "r3", "r4"});
  CHECK_THAT(compared.out + compared.err, Catch::Contains("run #4 was imported (colleague's laptop)"));
  const auto doc = render(repo);
  CHECK(contains(doc, "- run #4 (2024-05-01, imported: colleague's laptop)"));
}

TEST_CASE("ej report writes one self-contained HTML page that a headless browser shows with its chart")
{
  EjRepo repo;
  make_campaign(repo);
  const auto out = repo.ok({"report", "eagle", "--html", "eagle.html"});
  CHECK_THAT(out, Catch::Contains("eagle.html"));
  const auto html = read_text(repo.path() / "eagle.html");
  CHECK(contains(html, "<svg"));
  // Its one script (the attempts' explorer) is inline: nothing is fetched.
  for (const auto* external :
       {"src=\"http", "href=\"http", "<script src", "<link", "eagle.svg\"", "@import"}) {
    INFO(external);
    CHECK_FALSE(contains(html, external));
  }
  CHECK(contains(html, "FlashInfer allreduce fusion"));
  CHECK_FALSE(fs::exists(repo.path() / "journal")); // the report does not write the document

  const auto chromium = find_chromium().string();
  if (chromium.empty()) {
    EJ_SKIP_WITHOUT_SERVICE("chromium not installed");
  }
  CommandOptions options;
  options.env["HOME"] = repo.path().string();
  const auto result = run_command({chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                   "--user-data-dir=" + (repo.path() / ".chromium").string(), "--dump-dom",
                                   "file://" + (repo.path() / "eagle.html").string()},
                                  options);
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(result.out, Catch::Contains("<td>FlashInfer allreduce fusion</td>"));
  CHECK_THAT(result.out, Catch::Contains("EAGLE-3 fast verify"));
  CHECK(result.out.find("parsererror") == std::string::npos);

  // Every column the summary can have (interval, target, commit): it still fits the page.
  const auto problems = layout_problems(chromium, html, 900, {"attempt"}, repo.path(), "#ej-history svg");
  std::string all;
  for (const auto& problem : problems) {
    all += problem + "\n";
  }
  INFO(all);
  CHECK(problems.empty());
}
