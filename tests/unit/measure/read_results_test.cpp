// Readers of the result files of pytest-benchmark and Criterion, on their real outputs.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;
using ej::measure::test::numbers;

TEST_CASE("pytest reads a benchmark by fullname, every round of stats.data a sample")
{
  const auto text = ej::test::read_fixture("pytest_benchmark_several_units.json");
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
  const auto old =
      extract_text("m=criterion", ej::test::read_fixture("criterion_estimates_titlecase_keys.json"));
  REQUIRE(old.size() == 1);
  CHECK(old[0].value == Approx(15.127506967004065));
  CHECK(old[0].unit == "ns");
  CHECK(
      extract_text("m=criterion:#slope", ej::test::read_fixture("criterion_estimates_titlecase_keys.json"))[0]
          .value == Approx(15.077513761669776));

  const auto message = ej::test::read_fixture("cargo_criterion_message.json");
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

TEST_CASE("catch2 reads the XML reporter of Catch2 v2 and v3 in nanoseconds, entities decoded")
{
  const auto v2 = ej::test::read_fixture("catch2_v2_xml_benchmarks.xml");
  const auto all = extract_text("t=catch2", v2);
  REQUIRE(all.size() == 18);
  CHECK(all[0].key == "read | C-buffered | 5k.json");
  CHECK(all[0].value == 4458);
  CHECK(all[0].unit == "ns");
  auto spec = parse_metric_spec("t=catch2:read | C-buffered | 5k.json#high_mean");
  spec.unit = "us";
  CHECK(extract_text(spec, v2)[0].value == Approx(4.582));
  CHECK(extract_text("t=catch2:read | C-buffered | 5k.json#low_mean", v2)[0].value == 4404);
  CHECK(extract_text("t=catch2:read | C-buffered | 5k.json#std_dev", v2)[0].value == Approx(393.989));
  CHECK(extract_text("t=catch2:copy | C-All | 500k.json#high_std_dev", v2)[0].value == Approx(4.25106e+06));

  const auto v3 = ej::test::read_fixture("catch2_v3_xml_convolution.xml");
  CHECK(extract_text("t=catch2", v3).size() == 36);
  const auto unrolled = extract_text(
      "t=catch2:(JohT) inputPerKernelValue Transposed Inner&OuterLoopUnrolled((kernel size 16))", v3);
  REQUIRE(unrolled.size() == 1);
  CHECK(unrolled[0].value == Approx(81424.7));
  CHECK(extract_text("t=catch2:(chaowang15) convolve1D((kernel size 512))#low_std_dev", v3)[0].value ==
        Approx(9797.36));
  CHECK_THROWS_WITH(extract_text("t=catch2:nope", v3), Catch::Contains("it ran: (JohT)"));
}

TEST_CASE(
    "catch2 XML cut short, without benchmarks or without a statistic is an error saying what it expected")
{
  const auto v3 = ej::test::read_fixture("catch2_v3_xml_convolution.xml");
  CHECK_THROWS_WITH(extract_text("t=catch2", v3.substr(0, v3.size() / 2)),
                    Catch::Contains("metric 't'") && Catch::Contains("stdout is not well-formed XML") &&
                        Catch::Contains("cut short"));
  CHECK_THROWS_WITH(extract_text("t=catch2", "<?xml version=\"1.0\"?>\n<Catch2TestRun name=\"t\"/>\n"),
                    Catch::Contains("holds no Catch2 <BenchmarkResults>"));
  const std::string first =
      v3.substr(0, v3.find("<standardDeviation")) + "</BenchmarkResults></TestCase></Catch2TestRun>";
  CHECK_THROWS_WITH(extract_text("t=catch2:#std_dev", first),
                    Catch::Contains("has no <standardDeviation value=...>"));
  CHECK(extract_text("t=catch2", first)[0].value == 123208);
}

TEST_CASE("criterion reads sample.json as every sample, one iteration's time in ns, by default")
{
  const auto text = ej::test::read_fixture("criterion_sample_fib20_slow.json");
  const auto samples = extract_text("s=criterion", text);
  REQUIRE(samples.size() == 100);
  CHECK(samples[0].key.empty());
  CHECK(samples[0].value == Approx(1022840.0 / 55)); // times[0] / iters[0]
  CHECK(samples[0].unit == "ns");
  double sum = 0;
  for (const auto& sample : samples) {
    sum += sample.value;
  }
  // Criterion's mean estimate, in estimates.json beside it, is the mean of these samples
  const auto mean =
      extract_text("m=criterion", ej::test::read_fixture("criterion_estimates_fib20_slow.json"));
  REQUIRE(mean.size() == 1);
  CHECK(sum / 100 == Approx(mean[0].value));
  CHECK(extract_text("s=criterion:#samples", text).size() == 100);
  CHECK_THROWS_WITH(extract_text("s=criterion:#median", text),
                    Catch::Contains("sample.json, which holds samples, not the 'median' estimate"));
  CHECK_THROWS_WITH(extract_text("s=criterion", R"({"sampling_mode":"Linear","iters":[55.0,110.0]})"),
                    Catch::Contains("metric 's'") && Catch::Contains("'times' is missing"));
  CHECK_THROWS_WITH(extract_text("s=criterion", text.substr(0, text.size() / 2)),
                    Catch::Contains("metric 's'"));
}

TEST_CASE("criterion reads change/estimates.json as a relative change in percent, not as a time")
{
  const auto text = ej::test::read_fixture("criterion_change_estimates_fib20_slow.json");
  // Before, the mean change -0.0025 was a time: -0.0025 ns.
  const auto mean = extract_text("c=criterion", text);
  REQUIRE(mean.size() == 1);
  CHECK(mean[0].value == Approx(-0.24760232540745886));
  CHECK(mean[0].unit == "%");
  CHECK(extract_text("c=criterion:#median", text)[0].value == Approx(-0.07965437796831898));
  // Read from its file, the path says it: the metric's unit is %, and --unit ms is refused.
  const auto spec =
      parse_metric_spec("c=criterion:#mean@\"target/criterion/fib 20 - slow/change/estimates.json\"");
  CHECK(source_unit(spec) == "%");
  const ExtractInput as_file{"", "", [&text](const MetricSpec&) { return std::optional(TextSource(text)); }};
  CHECK(extract(spec, as_file)[0].unit == "%");
  auto in_ms = spec;
  in_ms.unit = "ms";
  CHECK_THROWS_AS(check_unit(in_ms), ej::UsageError);
  CHECK_THROWS_WITH(extract_text("c=criterion:#slope", text),
                    Catch::Contains("change/estimates.json") && Catch::Contains("#mean or #median"));
  // new/estimates.json beside it is still a time in ns.
  CHECK(extract_text("m=criterion", ej::test::read_fixture("criterion_estimates_fib20_slow.json"))[0].unit ==
        "ns");
}
