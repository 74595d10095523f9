// Exports that other tools read back: ej compare --format markdown|csv|json, ej runs --format csv,
// ej show run N --export-json in hyperfine's layout, and the schema field of every --json.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>

using namespace ej::test;
using Catch::Contains;
using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text)
{
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    out.push_back(line);
  }
  return out;
}

// Fields of one CSV line (RFC 4180: quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line)
{
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name)
{
  const auto found = std::find(header.begin(), header.end(), name);
  REQUIRE(found != header.end());
  return static_cast<std::size_t>(found - header.begin());
}

// Two runs of a two-combination sweep; the second 20% faster. Values differ a little per repeat, and
// each repeat sleeps a little longer than the time it prints, so that wall_s moves as time_ms does.
// time_ms is a fixed figure, not the shell's own time (--no-check-times): a load burst during the
// second run alone would make its wall_s decisively slower and flag the comparison.
void two_runs(const EjRepo& repo)
{
  repo.ok({"bench", "add", "sweep", "--repeat", "4", "--param", "variant=naive,blocked", "--no-check-times",
           "--metric", "time_ms=regex:time_ms=([0-9.]+)", "--shell",
           "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; base=50; [ -e fast ] && base=40; "
           "[ {variant} = blocked ] && base=$((base / 2)); sleep 0.0$((base + 1)); echo time_ms=$base.$n"});
  repo.ok({"run", "sweep", "--quiet"});
  write_text(repo.path() / "fast", "");
  write_text(repo.path() / "n", "0");
  repo.ok({"run", "sweep", "--quiet"});
}

} // namespace

TEST_CASE("ej compare --format csv has one row per series whose columns are the JSON's field names")
{
  EjRepo repo;
  two_runs(repo);
  const auto compared = json::parse(repo.ok({"compare", "r1", "r2", "--format", "json"}));
  CHECK(compared["schema"] == 1);
  CHECK(compared == json::parse(repo.ok({"compare", "r1", "r2", "--json"})));

  const auto lines = lines_of(repo.ok({"compare", "r1", "r2", "--format", "csv"}));
  REQUIRE(lines.size() == 1 + compared["series"].size());
  const auto header = csv_fields(lines[0]);
  CHECK(header[0] == "metric");
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const auto fields = csv_fields(lines[row]);
    REQUIRE(fields.size() == header.size());
    const auto& series = compared["series"][row - 1];
    CHECK(fields[column(header, "metric")] == series["metric"]);
    CHECK(fields[column(header, "params")] == series["params"]);
    CHECK(std::stod(fields[column(header, "reference_median")]) == series["reference_median"].get<double>());
    CHECK(std::stod(fields[column(header, "candidate_median")]) == series["candidate_median"].get<double>());
    CHECK(std::stod(fields[column(header, "change_pct")]) == series["change_pct"].get<double>());
    CHECK(fields[column(header, "outcome")] == series["outcome"]);
    CHECK(fields[column(header, "validity")] == compared["validity"]);
  }
  CHECK(repo.ej({"compare", "r1", "r2", "--format", "xml"}).exit_code == 2);
  CHECK(repo.ej({"compare", "r1", "r2", "--format", "csv", "--json"}).exit_code == 2);
}

TEST_CASE("ej compare --format markdown is a GitHub table with a row per series")
{
  EjRepo repo;
  two_runs(repo);
  const auto lines = lines_of(repo.ok({"compare", "r1", "r2", "--format", "markdown"}));
  REQUIRE(lines.size() >= 4);
  const auto unescaped = [](std::string text) {
    text.erase(std::remove(text.begin(), text.end(), '\\'), text.end());
    return text;
  };
  // The outcome over all series includes wall_s, which the machine's load decides: not checked here.
  CHECK_THAT(unescaped(lines[0]),
             Catch::StartsWith("**run #1** (reference) vs **run #2** (candidate), benchmark sweep: "));
  CHECK(lines[1].empty());
  CHECK(lines[2] == "| series | reference | candidate | change | interval | outcome |");
  CHECK(lines[3] == "|---|---:|---:|---:|---|---|");
  const auto series = json::parse(repo.ok({"compare", "r1", "r2", "--json"}))["series"];
  REQUIRE(lines.size() >= 4 + series.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& row = lines[4 + i];
    CHECK(std::count(row.begin(), row.end(), '|') == 7);
    CHECK_THAT(row, Contains(series[i]["change"].get<std::string>()));
  }
  // Backslash escapes aside (what the document escaper adds may change), the row reads:
  CHECK_THAT(unescaped(lines[4]), Contains("| time_ms [variant=naive] | 50.25 | 40.25 | -19.9% (1.25x faster) |"));
}

TEST_CASE("ej runs --format csv gives one row per run and series with its summary")
{
  EjRepo repo;
  two_runs(repo);
  const auto lines = lines_of(repo.ok({"runs", "--format", "csv"}));
  const auto header = csv_fields(lines.at(0));
  CHECK(header == std::vector<std::string>{"run",     "bench", "revision", "status", "attempt", "label",
                                           "started", "ended", "host",     "commit", "dirty",   "metric",
                                           "params",  "key",   "unit",     "n",      "mean",    "stddev",
                                           "median",  "min",   "max"});
  // Newest first; per run: time_ms and wall_s for each of the two variants.
  REQUIRE(lines.size() == 1 + 2 * 4);
  const auto row = csv_fields(lines[1]);
  REQUIRE(row.size() == header.size());
  CHECK(row[column(header, "run")] == "2");
  CHECK(row[column(header, "status")] == "finished");
  const auto naive = std::find_if(lines.begin() + 1, lines.end(), [](const std::string& line) {
    const auto f = csv_fields(line);
    return f[0] == "1" && f[11] == "time_ms" && f[12] == "variant=naive";
  });
  REQUIRE(naive != lines.end());
  const auto fields = csv_fields(*naive);
  CHECK(fields[column(header, "n")] == "4");
  CHECK(std::stod(fields[column(header, "mean")]) == Approx(50.25));
  CHECK(std::stod(fields[column(header, "min")]) == Approx(50.1));
  CHECK(repo.ej({"runs", "--format", "yaml"}).exit_code == 2);
}

TEST_CASE("ej show run N --export-json writes hyperfine's JSON layout, as hyperfine's scripts read it")
{
  EjRepo repo;
  two_runs(repo);
  TempDir elsewhere("ej-export");
  CommandOptions outside;
  outside.cwd = elsewhere.path();
  const auto result = run_command({EJ_BINARY, "show", "run", "1", "--export-json", "out.json"}, outside);
  REQUIRE(result.exit_code == 1); // outside a repository: nothing written
  CHECK(!std::filesystem::exists(elsewhere / "out.json"));

  repo.ok({"show", "run", "1", "--export-json", "out.json"});
  const auto exported = json::parse(read_text(repo.path() / "out.json"));
  CHECK(exported["schema"] == 1);
  // What hyperfine's scripts (advanced_statistics.py, plot_whisker.py, plot_parametrized.py,
  // plot_histogram.py) read: results[].command, .times, .mean, .stddev, .median, .min, .max,
  // .user, .system, .exit_codes, .parameters[NAME].
  const auto& results = exported["results"];
  REQUIRE(results.size() == 2);
  const auto run = show_run(repo, 1);
  for (const auto& r : results) {
    const auto variant = r["parameters"]["variant"].get<std::string>();
    CHECK(r["command"].get<std::string>().find("[ " + variant + " = blocked ]") != std::string::npos);
    const auto times = r["times"].get<std::vector<double>>();
    REQUIRE(times.size() == 4);
    CHECK(times == samples_of(run, "wall_s", "variant=" + variant));
    CHECK(r["mean"].get<double>() == Approx(std::accumulate(times.begin(), times.end(), 0.0) / 4));
    CHECK(r["stddev"].get<double>() >= 0);
    CHECK(r["min"].get<double>() == *std::min_element(times.begin(), times.end()));
    CHECK(r["max"].get<double>() == *std::max_element(times.begin(), times.end()));
    CHECK(r["median"].is_number());
    CHECK(r["user"].is_number());
    CHECK(r["system"].is_number());
    CHECK(r["exit_codes"] == json({0, 0, 0, 0}));
    REQUIRE(r["metrics"].size() == 1);
    CHECK(r["metrics"][0]["metric"] == "time_ms");
    CHECK(r["metrics"][0]["values"] == json(samples_of(run, "time_ms", "variant=" + variant)));
  }
  CHECK(results[0]["parameters"] == json({{"variant", "naive"}}));
  CHECK(repo.ej({"show", "run", "9", "--export-json", "x.json"}).exit_code == 1);
}

TEST_CASE("every --json output carries the schema version, and timestamps are called created everywhere")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "P"});
  repo.ok({"try", "first", "--plan", "p"});
  repo.ok({"note", "1", "a note"});
  repo.ok({"status", "1", "rejected", "--reason", "slow"});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--shell", "true"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});

  const auto shown = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(shown["schema"] == 1);
  CHECK(shown["notes"][0].contains("created"));
  CHECK(shown["status_history"][0].contains("created"));
  const auto baselines = json::parse(repo.ok({"plan", "baseline", "p", "--json"}));
  CHECK(baselines[0]["schema"] == 1);
  CHECK(baselines[0].contains("created"));
  CHECK(!baselines[0].contains("time"));
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"log", "--json"}, {"plan", "list", "--json"}, {"runs", "--json"}, {"bench", "list", "--json"}}) {
    const auto list = json::parse(repo.ok(args));
    REQUIRE(list.is_array());
    REQUIRE(!list.empty());
    CHECK(list[0]["schema"] == 1);
  }
  for (const auto& args : std::vector<std::vector<std::string>>{{"plan", "show", "p", "--json"},
                                                                {"show", "run", "1", "--json"},
                                                                {"bench", "show", "b", "--json"},
                                                                {"env", "show", "1", "--json"}}) {
    CHECK(json::parse(repo.ok(args))["schema"] == 1);
  }
}
