#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;

namespace {

// What `--benchmark_repetitions=2 --benchmark_format=json` prints (context abridged), with a
// second benchmark in microseconds, a user counter and a failed benchmark.
constexpr std::string_view k_repetitions = R"({
  "context": {"date": "2024-05-01T10:00:00+00:00", "num_cpus": 2, "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_Sum/1024", "family_index": 0, "run_name": "BM_Sum/1024", "run_type": "iteration",
     "repetitions": 2, "repetition_index": 0, "threads": 1, "iterations": 1000,
     "real_time": 1.5e+02, "cpu_time": 1.4e+02, "time_unit": "ns", "items_per_second": 6.8e+09},
    {"name": "BM_Sum/1024", "family_index": 0, "run_name": "BM_Sum/1024", "run_type": "iteration",
     "repetitions": 2, "repetition_index": 1, "threads": 1, "iterations": 1000,
     "real_time": 1.7e+02, "cpu_time": 1.6e+02, "time_unit": "ns", "items_per_second": 6.4e+09},
    {"name": "BM_Sum/1024_mean", "family_index": 0, "run_name": "BM_Sum/1024", "run_type": "aggregate",
     "repetitions": 2, "threads": 1, "aggregate_name": "mean", "aggregate_unit": "time", "iterations": 2,
     "real_time": 1.6e+02, "cpu_time": 1.5e+02, "time_unit": "ns"},
    {"name": "BM_Sum/1024_cv", "family_index": 0, "run_name": "BM_Sum/1024", "run_type": "aggregate",
     "repetitions": 2, "threads": 1, "aggregate_name": "cv", "aggregate_unit": "percentage", "iterations": 2,
     "real_time": 8.8e-02, "cpu_time": 9.4e-02, "time_unit": "ns"},
    {"name": "BM_Sort", "run_name": "BM_Sort", "run_type": "iteration", "iterations": 10,
     "real_time": 2.5e+00, "cpu_time": 2.0e+00, "time_unit": "us"},
    {"name": "BM_Broken", "run_name": "BM_Broken", "run_type": "iteration", "error_occurred": true,
     "error_message": "input too large", "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}
  ]
})";

} // namespace

TEST_CASE("gbench turns iteration rows into samples and keeps aggregates flagged")
{
  const auto values = extract_text("sum_ns=gbench:BM_Sum/1024", k_repetitions);
  REQUIRE(values.size() == 4);
  CHECK(values[0].key == "BM_Sum/1024");
  CHECK(values[0].value == 150);
  CHECK(values[0].unit == "ns");
  CHECK_FALSE(values[0].aggregate);
  CHECK(values[1].value == 170);
  CHECK(values[2].aggregate);
  CHECK(values[2].note == "mean");
  CHECK(values[2].key == "BM_Sum/1024_mean");
  CHECK(values[2].value == 160);
  // a coefficient of variation is a fraction ("aggregate_unit": "percentage"): a percentage of its
  // own, neither converted nor labelled as a time (before, ej run stored it in ns)
  CHECK(values[3].aggregate);
  CHECK(values[3].note == "cv");
  CHECK(values[3].value == Approx(8.8));
  CHECK(values[3].unit == "%");
  CHECK(values[3].own_unit);
  auto us = parse_metric_spec("sum_us=gbench:BM_Sum/1024");
  us.unit = "us";
  const auto in_us = extract_text(us, k_repetitions);
  CHECK(in_us[0].unit == "us");
  CHECK(in_us[3].unit == "%");
  CHECK(in_us[3].value == Approx(8.8));
}

TEST_CASE("gbench converts every row's time unit to the metric's unit")
{
  auto spec = parse_metric_spec("t=gbench:BM_Sort");
  CHECK(extract_text(spec, k_repetitions)[0].value == 2500); // 2.5 us in ns by default
  spec.unit = "us";
  CHECK(extract_text(spec, k_repetitions)[0].value == 2.5);
  spec.unit = "ms";
  const auto ms = extract_text(spec, k_repetitions)[0];
  CHECK(ms.value == Approx(0.0025));
  CHECK(ms.unit == "ms");
}

TEST_CASE("gbench with no name reads every row, and #FIELD picks cpu_time or a counter")
{
  const auto all = extract_text("t=gbench", k_repetitions);
  REQUIRE(all.size() == 6);
  CHECK(all[4].key == "BM_Sort");
  CHECK(all[4].value == 2500);
  CHECK(all[5].skipped);
  CHECK(all[5].note == "input too large");

  CHECK(extract_text("t=gbench:BM_Sum/1024#cpu_time", k_repetitions)[0].value == 140);
  const auto items = extract_text("t=gbench:BM_Sum/1024#items_per_second", k_repetitions);
  REQUIRE(items.size() == 2); // aggregates without the counter are left out
  CHECK(items[0].value == 6.8e9);
  CHECK(items[0].unit == "items/s"); // read from the counter's name
}

TEST_CASE("gbench counters convert to --unit when their name says their unit")
{
  auto spec = parse_metric_spec("t=gbench:BM_Sum/1024#items_per_second");
  spec.unit = "items/ms";
  CHECK(extract_text(spec, k_repetitions)[0].value == Approx(6.8e6));
  spec.unit = "GB/s";
  CHECK_THROWS_WITH(extract_text(spec, k_repetitions), Catch::Contains("a rate of items"));
}

TEST_CASE("gbench names the rows it has when the asked benchmark is absent")
{
  CHECK_THROWS_WITH(extract_text("t=gbench:BM_Nope", k_repetitions),
                    Catch::Contains("no row named 'BM_Nope'"));
  CHECK_THROWS_WITH(extract_text("t=gbench:BM_Nope", k_repetitions), Catch::Contains("BM_Sort"));
  CHECK_THROWS_WITH(extract_text("t=gbench", R"({"results": []})"),
                    Catch::Contains("not Google Benchmark's"));
}

TEST_CASE("gbench reads the real Google Benchmark outputs of the fixtures")
{
  const auto dir = ej::test::fixtures_dir();
  REQUIRE(std::filesystem::is_regular_file(dir / "gbench_fib_googlecpp_output.json"));
  REQUIRE(std::filesystem::is_regular_file(dir / "gbench_compare_test1_run1.json"));
  const auto fib =
      extract_text("fib=gbench:fib_20", ej::test::read_text(dir / "gbench_fib_googlecpp_output.json"));
  REQUIRE(fib.size() == 1);
  CHECK(fib[0].value == Approx(27455.600415007055));
  CHECK(fib[0].unit == "ns");

  // An old format without run_type, with seconds and complexity rows that carry no time.
  const auto run1 = ej::test::read_text(dir / "gbench_compare_test1_run1.json");
  auto spec = parse_metric_spec("t=gbench");
  const auto all = extract_text(spec, run1);
  CHECK(all.size() == 14); // 16 rows less BigO and RMS
  const auto slow = extract_text("t=gbench:BM_NotBadTimeUnit", run1);
  REQUIRE(slow.size() == 1);
  CHECK(slow[0].value == Approx(0.4e9));
  spec = parse_metric_spec("t=gbench:BM_DifferentTimeUnit");
  spec.unit = "ms";
  CHECK(extract_text(spec, run1)[0].value == 1000);
  // an aggregate row the metric names itself is its value, not a summary beside samples
  CHECK_FALSE(extract_text("c=gbench:MyComplexityTest_BigO#real_coefficient", run1)[0].aggregate);
  CHECK(extract_text("c=gbench:MyComplexityTest#real_coefficient", run1)[0].aggregate);
}

TEST_CASE("gbench reads an aggregate row named by the metric as its value, as aggregates-only output needs")
{
  const auto median = extract_text("m=gbench:BM_Sum/1024_mean", k_repetitions);
  REQUIRE(median.size() == 1);
  CHECK_FALSE(median[0].aggregate);
  CHECK(median[0].value == 160);
  CHECK(median[0].key == "BM_Sum/1024_mean");
}

TEST_CASE("gbench reads its JSON from the file named with @FILE")
{
  ej::test::TempDir dir;
  ej::test::write_text(dir / "out" / "gb.json", std::string(k_repetitions));
  ExtractInput input{"console table, not JSON", "",
                     [&dir](const MetricSpec& metric) { return TextSource::open(dir.path() / metric.file); }};
  const auto values = extract(parse_metric_spec("t=gbench:BM_Sort@out/gb.json"), input);
  REQUIRE(values.size() == 1);
  CHECK(values[0].value == 2500);
}
