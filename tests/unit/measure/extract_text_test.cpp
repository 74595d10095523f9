#include "extract_helpers.h"
#include "measure/extract.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::numbers;

namespace {

std::vector<ExtractedValue> extract_text_out(std::string_view spec, std::string_view out,
                                             std::string_view err = "")
{
  return extract(parse_metric_spec(spec), ExtractInput{out, err, nullptr});
}

std::string text_error_of(std::string_view spec, std::string_view out)
{
  try {
    extract_text_out(spec, out);
  } catch (const ej::Error& error) {
    return error.what();
  }
  return "(no error)";
}

// What SGLang's bench_serving prints at the end of a run (abridged).
constexpr std::string_view k_sglang = R"(============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Successful requests:                     200
Benchmark duration (s):                  41.38
Total input tokens:                      63845
Total generated tokens:                  3830
Request throughput (req/s):              4.83
Input token throughput (tok/s):          1542.89
Output token throughput (tok/s):         92.56
Peak output token throughput (tok/s):    301.00
Total token throughput (tok/s):          1635.45
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   22070.47
Median E2E Latency (ms):                 21857.37
==================================================
)";

} // namespace

TEST_CASE("regex yields one sample per match, in output order")
{
  const auto values =
      extract_text_out("verify_ms=regex:verify: ([0-9.]+) ms",
                       "warmup\nverify: 14.5 ms\nother: 3 ms\nverify: 15.25 ms\nverify: 10 ms\n");
  CHECK(numbers(values) == std::vector<double>{14.5, 15.25, 10.0});
  CHECK(values[0].key.empty());
  CHECK_FALSE(values[0].aggregate);
}

TEST_CASE("regex anchors match at line starts and the metric unit is carried")
{
  auto spec = parse_metric_spec("m=regex:^time ([0-9]+)$");
  spec.unit = "us";
  const auto values = extract(spec, ExtractInput{"time 5\nlast time 6\ntime 7", "", nullptr});
  CHECK(numbers(values) == std::vector<double>{5, 7});
  CHECK(values[1].unit == "us");
}

TEST_CASE("regex takes the unit printed after the capture and converts to one unit")
{
  const auto values =
      extract_text_out("v=regex:verify: ([0-9.]+)", "verify: 14.5 ms\nverify: 1500 us\nverify: 2\n");
  CHECK(numbers(values) == std::vector<double>{14.5, 1.5, 2});
  CHECK(values[1].unit == "ms");
  // inside the match too, and only a unit ej knows
  CHECK(extract_text_out("v=regex:took ([0-9.]+) s", "took 2 s\n")[0].unit == "s");
  CHECK(extract_text_out("v=regex:([0-9]+) of", "3 of 4\n")[0].unit.empty());
  // the name of the next statistic is not minutes
  CHECK(extract_text_out("v=regex:avg ([0-9.]+)", "rtt avg 12.1 min 10.0 max 14.2\n")[0].unit.empty());
  CHECK(extract_text_out("v=kv:avg", "avg: 12.1 min 10.0\n")[0].unit.empty());
}

TEST_CASE("a regex capture may hold digit-group separators")
{
  // Before, '1,036,537' was "not a number".
  CHECK(numbers(extract_text_out("n=regex:tokens: ([0-9,]+)", "tokens: 1,036,537\n")) ==
        std::vector<double>{1036537});
  CHECK(numbers(extract_text_out("n=regex:tokens: ([0-9_.]+)", "tokens: 1_036_537.5\n")) ==
        std::vector<double>{1036537.5});
  CHECK(numbers(extract_text_out("n=regex:n=(\\S+)", "n=-12,345\n")) == std::vector<double>{-12345});
  // not groups of three: not a number, rather than a guess
  CHECK_THAT(text_error_of("n=regex:n=(\\S+)", "n=1,5\n"), Catch::Contains("'1,5' is not a number"));
  CHECK_THAT(text_error_of("n=regex:n=(\\S+)", "n=1,0365\n"), Catch::Contains("is not a number"));
  CHECK_THAT(text_error_of("n=regex:n=(\\S+)", "n=1,036_537\n"), Catch::Contains("is not a number"));
}

TEST_CASE("regex reads stderr when asked")
{
  const auto values = extract_text_out("m=regex:stderr:took ([0-9]+) ms", "took 1 ms\n", "took 2 ms\n");
  CHECK(numbers(values) == std::vector<double>{2});
}

TEST_CASE("a regex that can match empty text does not loop forever")
{
  // Matches empty text between the numbers; the group takes no part there and yields nothing.
  CHECK(numbers(extract_text_out("m=regex:([0-9]+)?", "a1b22c")) == std::vector<double>{1, 22});
}

TEST_CASE("a regex that matches nothing shows the last ten lines it looked at")
{
  std::string out;
  for (int i = 1; i <= 15; ++i) {
    out += "line " + std::to_string(i) + "\n";
  }
  const auto message = text_error_of("verify_ms=regex:verify: ([0-9.]+) ms", out);
  CHECK_THAT(message, Catch::Contains("matched nothing in stdout"));
  CHECK_THAT(message, Catch::Contains("line 15"));
  CHECK_THAT(message, Catch::Contains("line 6"));
  CHECK_THAT(message, !Catch::Contains("line 5\n"));
  CHECK_THAT(text_error_of("m=regex:x ([0-9]+)", ""), Catch::Contains("output was empty"));
}

TEST_CASE("captured text that is not a finite number is rejected naming the metric and the text")
{
  CHECK_THAT(text_error_of("lat=regex:lat: (\\S+)", "lat: nan\n"), Catch::Contains("metric 'lat'"));
  CHECK_THAT(text_error_of("lat=regex:lat: (\\S+)", "lat: nan\n"),
             Catch::Contains("'nan' is not a finite number"));
  CHECK_THAT(text_error_of("lat=regex:lat: (\\S+)", "lat: inf\n"), Catch::Contains("'inf'"));
  CHECK_THAT(text_error_of("lat=regex:lat: (\\S+)", "lat: 1e999\n"), Catch::Contains("'1e999'"));
  CHECK_THAT(text_error_of("lat=regex:lat: (\\S+)", "lat: 12ms\n"),
             Catch::Contains("'12ms' is not a number"));
}

TEST_CASE("kv reads SGLang's bench_serving summary by its literal key")
{
  const auto values = extract_text_out("tok_s=kv:Output token throughput (tok/s)", k_sglang);
  REQUIRE(values.size() == 1); // "Peak output token throughput" is another metric
  CHECK(values[0].value == 92.56);
  CHECK(values[0].unit == "tok/s"); // from the key
  CHECK(numbers(extract_text_out("e2e=kv:Mean E2E Latency (ms)", k_sglang)) == std::vector<double>{22070.47});
  CHECK(numbers(extract_text_out("ok=kv:Successful requests", k_sglang)) == std::vector<double>{200});
}

TEST_CASE("kv takes the unit written after the value and converts the others to the first one's")
{
  const auto values = extract_text_out("lat=kv:latency", "latency: 12.5 ms\nlatency=3.2us\nlatency = 7\n");
  REQUIRE(values.size() == 3);
  CHECK(values[0].value == 12.5);
  CHECK(values[0].unit == "ms");
  CHECK(values[1].value == Approx(0.0032)); // before, 3.2 joined the series of ms as it was
  CHECK(values[1].unit == "ms");
  CHECK(values[2].value == 7); // no unit printed: labelled, not converted
  CHECK(values[2].unit == "ms");

  auto spec = parse_metric_spec("lat=kv:latency");
  spec.unit = "s";
  const auto seconds = extract(spec, ExtractInput{"latency: 12.5 ms\n", "", nullptr});
  CHECK(seconds[0].unit == "s");
  CHECK(seconds[0].value == 0.0125);
  spec.unit = "GB/s";
  CHECK_THROWS_WITH(extract(spec, ExtractInput{"latency: 12.5 ms\n", "", nullptr}),
                    Catch::Contains("metric 'lat'") && Catch::Contains("'ms' (a time)") &&
                        Catch::Contains("'GB/s' (a byte rate)"));
  // a word after the number that is no unit is no reason to fail
  CHECK(extract(spec, ExtractInput{"latency: 12.5 (avg)\n", "", nullptr})[0].unit == "GB/s");
}

TEST_CASE("values printed in several time units in one output become one unit")
{
  // The shape of torch.utils.benchmark Timer printouts: ns, us and ms in one run.
  constexpr std::string_view k_torch =
      R"(<torch.utils.benchmark.utils.common.Measurement object at 0x7f0e2c1d3a90>
x.sum()
  Median: 4.83 us
  IQR:    0.10 us (4.78 to 4.88)
  4 measurements, 100000 runs per measurement, 1 thread
<torch.utils.benchmark.utils.common.Measurement object at 0x7f0e2c1d3b50>
torch.mm(a, b)
  Median: 1.24 ms
  2 measurements, 100 runs per measurement, 1 thread
<torch.utils.benchmark.utils.common.Measurement object at 0x7f0e2c1d3c10>
x + 1
  Median: 850.00 ns
  2 measurements, 100000 runs per measurement, 1 thread
)";
  const auto values = extract_text_out("median=kv:Median", k_torch);
  REQUIRE(values.size() == 3);
  CHECK(values[0].value == 4.83);
  CHECK(values[1].value == Approx(1240));
  CHECK(values[2].value == Approx(0.85));
  for (const auto& value : values) {
    CHECK(value.unit == "us");
  }
  auto spec = parse_metric_spec("median=kv:Median");
  spec.unit = "ns";
  CHECK(numbers(extract(spec, ExtractInput{k_torch, "", nullptr})) ==
        std::vector<double>{4830, 1240000, 850});
}

TEST_CASE("kv takes the unit written in the key and converts it to --unit")
{
  auto spec = parse_metric_spec("ttft=kv:Median TTFT (ms)");
  const auto ms = extract(spec, ExtractInput{"Median TTFT (ms):    250.5\n", "", nullptr});
  CHECK(ms[0].unit == "ms");
  spec.unit = "s";
  CHECK(extract(spec, ExtractInput{"Median TTFT (ms):    250.5\n", "", nullptr})[0].value == 0.2505);
  const auto us = extract_text_out("lat=kv:latency_us", "latency_us=1500\n");
  CHECK(us[0].unit == "us");
  spec = parse_metric_spec("tput=kv:Output token throughput (tok/s)");
  spec.unit = "tok/ms";
  CHECK(extract(spec, ExtractInput{k_sglang, "", nullptr})[0].value == Approx(0.09256));
}

TEST_CASE("kv finds keys among several pairs on a line and after log prefixes")
{
  const auto values =
      extract_text_out("b=kv:b", "a=1 b=2 c=3\n[INFO] b=4\nstep 3: loss=0.5, b: 6 items\nab=9\n");
  CHECK(numbers(values) == std::vector<double>{2, 4, 6});
  const auto loss =
      extract_text_out("loss=kv:loss", "step 1: loss=0.5, acc=0.9\nstep 2: loss=0.25 acc=0.95\n");
  CHECK(numbers(loss) == std::vector<double>{0.5, 0.25});
  CHECK(loss[0].unit.empty()); // "acc=0.9" is a pair, not a unit
}

TEST_CASE("kv reads numbers written with thousands separators, and commas between pairs")
{
  CHECK(numbers(extract_text_out("in=kv:Total input tokens", "Total input tokens:   63,845\n")) ==
        std::vector<double>{63845});
  const auto big = extract_text_out("x=kv:x", "x: -1,234,567.5 ms\n");
  CHECK(big[0].value == -1234567.5);
  CHECK(big[0].unit == "ms");
  const auto pairs = extract_text_out("a=kv:a", "a=1,b=2\na=12,34\n");
  CHECK(numbers(pairs) == std::vector<double>{1, 12});
  CHECK(pairs[0].unit.empty());
  CHECK(pairs[1].unit.empty());
}

TEST_CASE("kv reads the last state of a progress line rewritten with carriage returns")
{
  CHECK(numbers(extract_text_out("it=kv:it/s", "it/s: 1.0\rit/s: 2.0\rit/s: 3.0\n")) ==
        std::vector<double>{1, 2, 3});
}

TEST_CASE("kv rejects non-finite or non-numeric values naming the metric and the text")
{
  const auto message = text_error_of("rate=kv:Traffic request rate", k_sglang);
  CHECK_THAT(message, Catch::Contains("metric 'rate'"));
  CHECK_THAT(message, Catch::Contains("'inf'"));
  CHECK_THAT(message, Catch::Contains("not a finite number"));
  CHECK_THAT(text_error_of("b=kv:Backend", k_sglang), Catch::Contains("'sglang', which is not a number"));
}

TEST_CASE("kv that finds nothing shows the tail of the output and how to fix the key")
{
  const auto message = text_error_of("tok_s=kv:output token throughput (tok/s)", k_sglang);
  CHECK_THAT(message, Catch::Contains("no line of stdout"));
  CHECK_THAT(message, Catch::Contains("Total token throughput (tok/s):          1635.45"));
  CHECK_THAT(message, Catch::Contains("Median E2E Latency"));
  CHECK_THAT(message, !Catch::Contains("Backend"));
  CHECK_THAT(message, Catch::Contains("exactly as printed"));
}

TEST_CASE("a file named with @FILE is read through the callback, and a missing one says what to do")
{
  auto spec = parse_metric_spec("m=kv:score@result.txt");
  std::string asked;
  ExtractInput input{"score: 1", "", [&asked](const MetricSpec& metric) -> std::optional<TextSource> {
                       asked = metric.file;
                       return TextSource::of_owned("score: 42\n");
                     }};
  CHECK(numbers(extract(spec, input)) == std::vector<double>{42});
  CHECK(asked == "result.txt");

  ExtractInput missing{"", "", [](const MetricSpec&) -> std::optional<TextSource> { return std::nullopt; }};
  CHECK_THROWS_WITH(extract(spec, missing), Catch::Contains("did not write 'result.txt'"));
}

TEST_CASE("values of one metric in units that do not convert are an error naming both")
{
  const auto message = text_error_of("x=kv:x", "x: 5 ms\nx: 3 GB/s\n");
  CHECK_THAT(message, Catch::Contains("metric 'x'") && Catch::Contains("'ms' (a time)") &&
                          Catch::Contains("'GB/s' (a byte rate)"));
  // a unit ej does not know cannot be converted to, but labels values that have none
  auto spec = parse_metric_spec("x=kv:x");
  spec.unit = "widgets";
  CHECK(extract(spec, ExtractInput{"x: 5\n", "", nullptr})[0].unit == "widgets");
  CHECK_THROWS_WITH(extract(spec, ExtractInput{"x: 5 ms\n", "", nullptr}),
                    Catch::Contains("metric 'x'") && Catch::Contains("'widgets', a unit ej does not know"));
}
