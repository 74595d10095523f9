// Readers of the result files of pytest-benchmark and Criterion, on their real outputs.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;
using ej::measure::test::numbers;

namespace {

std::string fixture(const std::string& name)
{
  const auto path = ej::test::fixtures_dir() / name;
  REQUIRE(std::filesystem::is_regular_file(path));
  return ej::test::read_text(path);
}

} // namespace

TEST_CASE("pytest reads a benchmark by fullname, every round of stats.data a sample")
{
  const auto text = fixture("pytest_benchmark_several_units.json");
  const auto sleep = extract_text("s=pytest:bench.py::test_sleep_2", text);
  REQUIRE(sleep.size() == 5);
  CHECK(sleep[0].key == "bench.py::test_sleep_2");
  CHECK(sleep[0].value == Approx(2.005173128));
  CHECK(sleep[0].unit == "s");
  auto spec = parse_metric_spec("f=pytest:bench.py::test_fib_10#median");
  spec.unit = "us";
  const auto median = extract_text(spec, text);
  REQUIRE(median.size() == 1);
  CHECK(median[0].value == Approx(28.053));
  CHECK(extract_text("o=pytest:test_fib_1#ops", text)[0].unit == "ops/s");
  // upstream trimmed this benchmark's rounds to 4 and a remark: the remark is not a number
  CHECK_THROWS_WITH(extract_text("f=pytest:bench.py::test_fib_1", text),
                    Catch::Contains("'... omitted to keep this file small' is not a number"));
  CHECK_THROWS_WITH(extract_text("f=pytest:bench.py::nope", text), Catch::Contains("bench.py::test_fib_20"));
  CHECK_THROWS_WITH(extract_text("f=pytest:bench.py::test_sleep_2#p42", text),
                    Catch::Contains("no stats field 'p42'"));
  CHECK_THROWS_WITH(extract_text("f=pytest", "{\"results\": []}"), Catch::Contains("not pytest-benchmark's"));
}

TEST_CASE("criterion reads estimates.json with TitleCase keys and cargo-criterion's messages with units")
{
  const auto old = extract_text("m=criterion", fixture("criterion_estimates_titlecase_keys.json"));
  REQUIRE(old.size() == 1);
  CHECK(old[0].value == Approx(15.127506967004065));
  CHECK(old[0].unit == "ns");
  CHECK(extract_text("m=criterion:#slope", fixture("criterion_estimates_titlecase_keys.json"))[0].value ==
        Approx(15.077513761669776));

  const auto message = fixture("cargo_criterion_message.json");
  auto spec = parse_metric_spec("m=criterion:#median");
  spec.unit = "us";
  const auto median = extract_text(spec, message);
  REQUIRE(median.size() == 1);
  CHECK(median[0].key == "Queries/[LIGHT] Bam query all");
  CHECK(median[0].value == Approx(12.342126458243318));
  const auto samples = extract_text("s=criterion:#samples", message);
  REQUIRE(samples.size() == 50);
  CHECK(samples[0].value == Approx(23353750.0 / 1906));
  CHECK_THROWS_WITH(extract_text("s=criterion:other#mean", message), Catch::Contains("it has: Queries/"));
  CHECK_THROWS_AS(parse_metric_spec("s=criterion:#p99"), ej::UsageError);
  CHECK_THROWS_WITH(
      extract_text("s=criterion", "{\"reason\": \"benchmark-complete\", \"id\": \"x\", \"mean\""),
      Catch::Contains("metric 's'"));
}
