#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/command.h"
#include "support/skip.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;

namespace {

// hyperfine --export-json with two commands, one run of the second ignored as failed (-i).
constexpr std::string_view k_two_commands = R"({
  "results": [
    {"command": "sleep 0.1", "mean": 0.102, "stddev": 0.001, "median": 0.102, "user": 0.001, "system": 0.001,
     "min": 0.101, "max": 0.103, "times": [0.101, 0.103], "exit_codes": [0, 0]},
    {"command": "./bench --fast", "mean": 0.05, "stddev": null, "median": 0.05, "user": 0.01, "system": 0.0,
     "min": 0.04, "max": 0.06, "times": [0.04, 0.06], "exit_codes": [0, 3]}
  ]
})";

} // namespace

TEST_CASE("hyperfine turns every entry of times into a sample in seconds, keyed by command")
{
  const auto values = extract_text("t=hyperfine", k_two_commands);
  REQUIRE(values.size() == 4);
  CHECK(values[0].key == "sleep 0.1");
  CHECK(values[0].value == 0.101);
  CHECK(values[0].unit == "s");
  CHECK(values[3].key == "./bench --fast");
  CHECK(values[3].skipped);
  CHECK(values[3].note == "exit code 3");
  CHECK_FALSE(values[2].skipped);
}

TEST_CASE("hyperfine selects a command by its exact text or its index, and converts units")
{
  CHECK(extract_text("t=hyperfine:./bench --fast", k_two_commands).size() == 2);
  auto spec = parse_metric_spec("t=hyperfine:0");
  spec.unit = "ms";
  const auto values = extract_text(spec, k_two_commands);
  REQUIRE(values.size() == 2);
  CHECK(values[0].key == "sleep 0.1");
  CHECK(values[0].value == 101);
  CHECK(values[0].unit == "ms");

  const auto message = [&] {
    try {
      extract_text("t=hyperfine:sleep 0.2", k_two_commands);
    } catch (const ej::Error& error) {
      return std::string(error.what());
    }
    return std::string();
  }();
  CHECK_THAT(message, Catch::Contains("no command 'sleep 0.2'"));
  CHECK_THAT(message, Catch::Contains("1: './bench --fast'"));
  CHECK_THROWS_WITH(extract_text("t=hyperfine:2", k_two_commands), Catch::Contains("no command '2'"));
}

TEST_CASE("hyperfine reads the real export of the fixtures")
{
  const auto dir = ej::test::fixtures_dir();
  REQUIRE(std::filesystem::is_regular_file(dir / "hyperfine_3em_results.json"));
  const auto json = ej::test::read_text(dir / "hyperfine_3em_results.json");
  CHECK(extract_text("t=hyperfine", json).size() == 100);
  const auto evm = extract_text("t=hyperfine:../../target/release/bench_evm", json);
  REQUIRE(evm.size() == 20);
  CHECK(evm[0].value == 2.86564482634);
  CHECK(evm[19].value == 2.76293932634);
  CHECK(extract_text("t=hyperfine:1", json) == evm);
}

TEST_CASE("hyperfine's own --export-json file is read after a real run")
{
  ej::test::TempDir dir;
  ej::test::CommandOptions options;
  options.cwd = dir.path();
  ej::test::CommandResult run;
  try {
    run = ej::test::run_command(
        {"hyperfine", "--runs", "3", "-N", "--style", "none", "--export-json", "h.json", "true"}, options);
  } catch (const std::runtime_error& error) {
    EJ_SKIP_WITHOUT_SERVICE(std::string("hyperfine: ") + error.what());
  }
  if (run.exit_code != 0) {
    EJ_SKIP_WITHOUT_SERVICE("hyperfine failed here: " + run.err);
  }
  ExtractInput input{run.out, run.err, [&dir](const MetricSpec& metric) { return TextSource::open(dir.path() / metric.file); }};
  const auto values = extract(parse_metric_spec("t=hyperfine:true@h.json"), input);
  REQUIRE(values.size() == 3);
  for (const auto& value : values) {
    CHECK(value.key == "true");
    CHECK(value.value > 0);
    CHECK(value.unit == "s");
  }
}

TEST_CASE("a hyperfine metric over the terminal table says the output is not JSON and what to do")
{
  CHECK_THROWS_WITH(extract_text("t=hyperfine", "Benchmark 1: sleep 0.1\n  Time (mean ± σ): 101.2 ms\n"),
                    Catch::Contains("holds no JSON document") && Catch::Contains("hyperfine --export-json") &&
                        Catch::Contains("| Benchmark 1: sleep 0.1"));
  CHECK_THROWS_WITH(extract_text("t=hyperfine", R"({"benchmarks": []})"), Catch::Contains("--export-json"));
}
