#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::numbers;

namespace {

std::vector<ExtractedValue> extract_json_out(std::string_view spec, std::string_view out)
{
  return extract(parse_metric_spec(spec), ExtractInput{out, "", nullptr});
}

std::string json_error_of(std::string_view spec, std::string_view out)
{
  try {
    extract_json_out(spec, out);
  } catch (const ej::Error& error) {
    return error.what();
  }
  return "(no error)";
}

constexpr std::string_view k_results = R"({"results": [{"name": "a.b", "mean": 1.5, "runs": [1, 2.5, "3"]},
                                                      {"name": "c", "mean": 4}]})";

} // namespace

TEST_CASE("json reads a number by JSON Pointer or by dotted path")
{
  CHECK(numbers(extract_json_out("m=json:/results/0/mean", k_results)) == std::vector<double>{1.5});
  CHECK(numbers(extract_json_out("m=json:results.1.mean", k_results)) == std::vector<double>{4});
  CHECK(numbers(extract_json_out("m=json", "12.5\n")) == std::vector<double>{12.5});
}

TEST_CASE("json turns an array of numbers (or numeric strings) into samples")
{
  const auto values = extract_json_out("m=json:results.0.runs", k_results);
  CHECK(numbers(values) == std::vector<double>{1, 2.5, 3});
  CHECK(values[2].key.empty());
}

TEST_CASE("a JSON Pointer escapes '/' and '~' in keys")
{
  CHECK(numbers(extract_json_out("m=json:/a~1b/c~0d", R"({"a/b": {"c~d": 7}})")) == std::vector<double>{7});
}

TEST_CASE("json skips log lines printed before the document")
{
  const std::string out = "loading model...\n[info] warmup done\n{\"latency\": {\"p50\": 3.5}}\n\n";
  CHECK(numbers(extract_json_out("p50=json:latency.p50", out)) == std::vector<double>{3.5});
}

TEST_CASE("text after the JSON document is an error that shows where it starts")
{
  const std::string out = "{\"latency\": {\"p50\": 3.5}}\nbye\n";
  const auto message = json_error_of("p50=json:latency.p50", out);
  CHECK_THAT(message, Catch::Contains("metric 'p50'") && Catch::Contains("text after its JSON document"));
  CHECK_THAT(message, Catch::Contains("line 2, column 1: 'bye'"));
  // Before, SGLang's appended --output-file gave its first record; now the records before the
  // last are skipped as log lines are, and a document followed by another says so.
  const std::string jsonl = "{\"output_throughput\": 92.5}\n{\"output_throughput\": 96.1}\n";
  CHECK(numbers(extract_json_out("t=json:output_throughput", jsonl)) == std::vector<double>{96.1});
  CHECK_THAT(json_error_of("t=json:output_throughput", "{\"a\": 1} {\"a\": 2}\n"),
             Catch::Contains("more than one JSON document") && Catch::Contains("line 1, column 10"));
}

TEST_CASE("a log line that starts with a number is not read as the document")
{
  // Before, the stream reader took "2023" from the date and ignored the rest.
  const std::string out = "2023-11-02 10:00:01 INFO starting\n{\"x\": 7}\n";
  CHECK_THAT(json_error_of("m=json", out), Catch::Contains("is an object with keys 'x', not a number"));
  CHECK(numbers(extract_json_out("m=json:x", out)) == std::vector<double>{7});
  // Before, a log without JSON was "text after its JSON document, at line 1, column 5": the date's
  // 2023 taken for a document.
  const auto none = json_error_of("m=json", "2023-11-02 10:00:01 done\n");
  CHECK_THAT(none, Catch::Contains("metric 'm'") && Catch::Contains("stdout holds no JSON document") &&
                       Catch::Contains("| 2023-11-02 10:00:01 done"));
  CHECK_THAT(none, !Catch::Contains("text after"));
}

TEST_CASE("a console log holding no JSON says what the reader expected and shows what it found")
{
  // Google Benchmark's console table, which starts with the date of the run, read as its JSON.
  const auto console = ej::test::read_fixture("gbench_console_bigo.txt");
  const auto gbench = json_error_of("t=gbench:BM_FrogJump", console);
  CHECK_THAT(gbench, Catch::Contains("stdout holds no JSON document") &&
                         Catch::Contains("the gbench reader expects Google Benchmark JSON") &&
                         Catch::Contains("| BM_SliceSum"));
  CHECK_THAT(gbench, !Catch::Contains("text after its JSON document"));
  // nvbench reads its markdown too: a Catch2 log is neither form, and the message says both.
  const auto nvbench = json_error_of("g=nvbench", ej::test::read_fixture("catch2_v2_console.txt"));
  CHECK_THAT(nvbench, Catch::Contains("holds neither NVBench's --json document") &&
                          Catch::Contains("nor its markdown ('# Benchmark Results'") &&
                          Catch::Contains("its last lines were"));
  CHECK_THAT(nvbench, !Catch::Contains("print only its JSON"));
  // A gtest log's lines start with '[', as a JSON array would; NVBench's document is an object.
  const auto gtest = json_error_of("g=nvbench", "[==========] Running 1 test\n[ RUN      ] A.B\n"
                                                "[       OK ] A.B (0 ms)\n");
  CHECK_THAT(gtest, Catch::Contains("holds neither NVBench's --json document") &&
                        Catch::Contains("| [       OK ] A.B (0 ms)"));
  CHECK_THAT(gtest, !Catch::Contains("print only its JSON"));
  // A JSON-only reader says the same of it as of any log without JSON.
  const auto gtest_gbench = json_error_of("t=gbench", "[==========] Running 1 test\n[ RUN      ] A.B\n"
                                                      "[       OK ] A.B (0 ms)\n");
  CHECK_THAT(gtest_gbench, Catch::Contains("stdout holds no JSON document") &&
                               Catch::Contains("the gbench reader expects Google Benchmark JSON") &&
                               Catch::Contains("| [ RUN      ] A.B"));
  // A log line opening with '[' before the document is still skipped; so is one before an array.
  CHECK(numbers(extract_json_out("m=json:/0", "[info] starting\n[ 1.5, 2 ]\n")) == std::vector<double>{1.5});
}

TEST_CASE("Python's NaN and Infinity do not fail a document whose read value is finite")
{
  // What SGLang's bench_serving writes to its --output-file by default (abridged).
  const std::string out =
      R"({"backend": "sglang", "request_rate": Infinity, "max_concurrency": NaN,)"
      R"( "low": -Infinity, "output_throughput": 92.56, "note": "NaN is fine in a string"})";
  CHECK(numbers(extract_json_out("tput=json:output_throughput", out)) == std::vector<double>{92.56});
  const auto message = json_error_of("rate=json:request_rate", out);
  CHECK_THAT(message, Catch::Contains("metric 'rate'") && Catch::Contains("not a finite number"));
  CHECK_THAT(json_error_of("c=json:max_concurrency", out), Catch::Contains("'NaN' is not a finite number"));
  CHECK_THAT(json_error_of("l=json:low", out), Catch::Contains("'-Infinity'"));
  CHECK_THAT(json_error_of("n=json:note", out),
             Catch::Contains("'NaN is fine in a string' is not a")); // as written
  // an error after a literal is still shown where it is in the text as printed
  CHECK_THAT(json_error_of("m=json:a", "{\"a\": NaN, \"b\": tru}"), Catch::Contains("line 1, column 20"));
}

TEST_CASE("json takes the unit from a sibling 'unit' or from the key, and converts to --unit")
{
  // cargo-criterion's message format carries the unit next to each estimate.
  const std::string criterion = R"({"typical": {"estimate": 1500.0, "lower_bound": 1400.0, "unit": "ns"}})";
  const auto typical = extract_json_out("t=json:typical.estimate", criterion);
  CHECK(typical[0].unit == "ns");
  auto spec = parse_metric_spec("t=json:typical.estimate");
  spec.unit = "us";
  CHECK(extract(spec, ExtractInput{criterion, "", nullptr})[0].value == 1.5);

  // vLLM's saved result: the unit is in the key.
  const std::string vllm = R"({"median_ttft_ms": 250.0, "output_throughput": 1024.5})";
  CHECK(extract_json_out("ttft=json:median_ttft_ms", vllm)[0].unit == "ms");
  spec = parse_metric_spec("ttft=json:median_ttft_ms");
  spec.unit = "s";
  const auto seconds = extract(spec, ExtractInput{vllm, "", nullptr});
  CHECK(seconds[0].value == 0.25);
  CHECK(seconds[0].unit == "s");
  spec.unit = "tok/s";
  CHECK_THROWS_WITH(extract(spec, ExtractInput{vllm, "", nullptr}), Catch::Contains("metric 'ttft'") &&
                                                                        Catch::Contains("'ms' (a time)") &&
                                                                        Catch::Contains("'tok/s'"));
  // unknown source unit: --unit labels
  spec = parse_metric_spec("tput=json:output_throughput");
  spec.unit = "tok/s";
  CHECK(extract(spec, ExtractInput{vllm, "", nullptr})[0].unit == "tok/s");
  CHECK(extract(spec, ExtractInput{vllm, "", nullptr})[0].value == 1024.5);
}

TEST_CASE("a path that leads nowhere says where it stopped and what is there")
{
  const auto message = json_error_of("m=json:results.0.median", k_results);
  CHECK_THAT(message, Catch::Contains("no 'median' at '/results/0'"));
  CHECK_THAT(message, Catch::Contains("'mean'"));
  CHECK_THAT(json_error_of("m=json:/results/5", k_results), Catch::Contains("array of 2 elements"));
  CHECK_THAT(json_error_of("m=json:results.0", k_results),
             Catch::Contains("is an object with keys 'mean', 'name', 'runs'"));
  CHECK_THAT(json_error_of("m=json:results.0.name", k_results), Catch::Contains("'a.b' is not a number"));
  CHECK_THAT(json_error_of("m=json:x", R"({"x": null})"), Catch::Contains("not a number"));
  CHECK_THAT(json_error_of("m=json:x", R"({"x": []})"), Catch::Contains("empty array"));
}

TEST_CASE("numeric strings that are not finite are rejected naming the metric and the text")
{
  const auto message = json_error_of("tput=json:x", R"({"x": "NaN"})");
  CHECK_THAT(message, Catch::Contains("metric 'tput'"));
  CHECK_THAT(message, Catch::Contains("'NaN' is not a finite number"));
  CHECK_THAT(json_error_of("tput=json:x", R"({"x": ["1", "-inf"]})"), Catch::Contains("'-inf'"));
  CHECK_THAT(json_error_of("tput=json:x", R"({"x": "1e400"})"),
             Catch::Contains("'1e400' is not a finite number"));
}

TEST_CASE("malformed JSON is reported with its line, column and what to do")
{
  const auto message = json_error_of("m=json:a", "{\n  \"a\": 1,\n  \"b\": tru\n}\n");
  CHECK_THAT(message, Catch::Contains("stdout is not valid JSON"));
  CHECK_THAT(message, Catch::Contains("line 3, column"));
  CHECK_THAT(message, Catch::Contains("\"b\": tru"));
  CHECK_THAT(message, Catch::Contains("print only its JSON"));

  CHECK_THAT(json_error_of("m=json:a", "Segmentation fault\n"),
             Catch::Contains("holds no JSON document") && Catch::Contains("| Segmentation fault"));
  CHECK_THAT(json_error_of("m=json:a", "  \n"), Catch::Contains("stdout is empty"));
  CHECK_THAT(json_error_of("m=json:a", R"({"a": NaNa})"), Catch::Contains("not valid JSON"));
}

TEST_CASE("a truncated document is reported at its end")
{
  const auto message = json_error_of("m=json:a", "{\"a\": [1, 2,");
  CHECK_THAT(message, Catch::Contains("not valid JSON"));
  CHECK_THAT(message, Catch::Contains("line 1, column 1"));
}
