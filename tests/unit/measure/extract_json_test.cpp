#include "measure/extract.h"
#include "extract_helpers.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::numbers;

namespace {

std::vector<ExtractedValue> extract_out(std::string_view spec, std::string_view out)
{
  return extract(parse_metric_spec(spec), ExtractInput{out, "", nullptr});
}

std::string error_of(std::string_view spec, std::string_view out)
{
  try {
    extract_out(spec, out);
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
  CHECK(numbers(extract_out("m=json:/results/0/mean", k_results)) == std::vector<double>{1.5});
  CHECK(numbers(extract_out("m=json:results.1.mean", k_results)) == std::vector<double>{4});
  CHECK(numbers(extract_out("m=json", "12.5\n")) == std::vector<double>{12.5});
}

TEST_CASE("json turns an array of numbers (or numeric strings) into samples")
{
  const auto values = extract_out("m=json:results.0.runs", k_results);
  CHECK(numbers(values) == std::vector<double>{1, 2.5, 3});
  CHECK(values[2].key.empty());
}

TEST_CASE("a JSON Pointer escapes '/' and '~' in keys")
{
  CHECK(numbers(extract_out("m=json:/a~1b/c~0d", R"({"a/b": {"c~d": 7}})")) == std::vector<double>{7});
}

TEST_CASE("json skips log lines printed before the document and text after it")
{
  const std::string out = "loading model...\n[info] warmup done\n{\"latency\": {\"p50\": 3.5}}\nbye\n";
  CHECK(numbers(extract_out("p50=json:latency.p50", out)) == std::vector<double>{3.5});
}

TEST_CASE("a path that leads nowhere says where it stopped and what is there")
{
  const auto message = error_of("m=json:results.0.median", k_results);
  CHECK_THAT(message, Catch::Contains("no 'median' at '/results/0'"));
  CHECK_THAT(message, Catch::Contains("'mean'"));
  CHECK_THAT(error_of("m=json:/results/5", k_results), Catch::Contains("array of 2 elements"));
  CHECK_THAT(error_of("m=json:results.0", k_results),
             Catch::Contains("is an object with keys 'mean', 'name', 'runs'"));
  CHECK_THAT(error_of("m=json:results.0.name", k_results), Catch::Contains("'a.b' is not a number"));
  CHECK_THAT(error_of("m=json:x", R"({"x": null})"), Catch::Contains("not a number"));
  CHECK_THAT(error_of("m=json:x", R"({"x": []})"), Catch::Contains("empty array"));
}

TEST_CASE("numeric strings that are not finite are rejected naming the metric and the text")
{
  const auto message = error_of("tput=json:x", R"({"x": "NaN"})");
  CHECK_THAT(message, Catch::Contains("metric 'tput'"));
  CHECK_THAT(message, Catch::Contains("'NaN' is not a finite number"));
  CHECK_THAT(error_of("tput=json:x", R"({"x": ["1", "-inf"]})"), Catch::Contains("'-inf'"));
  CHECK_THAT(error_of("tput=json:x", R"({"x": "1e400"})"), Catch::Contains("'1e400' is not a finite number"));
}

TEST_CASE("malformed JSON is reported with its line, column and what to do")
{
  const auto message = error_of("m=json:a", "{\n  \"a\": 1,\n  \"b\": tru\n}\n");
  CHECK_THAT(message, Catch::Contains("stdout is not valid JSON"));
  CHECK_THAT(message, Catch::Contains("line 3, column"));
  CHECK_THAT(message, Catch::Contains("\"b\": tru"));
  CHECK_THAT(message, Catch::Contains("print only its JSON"));

  CHECK_THAT(error_of("m=json:a", "Segmentation fault\n"), Catch::Contains("line 1, column 1"));
  CHECK_THAT(error_of("m=json:a", "  \n"), Catch::Contains("stdout is empty"));
  CHECK_THAT(error_of("m=json:a", R"({"a": NaN})"), Catch::Contains("NaN and Infinity are not JSON numbers"));
}

TEST_CASE("a truncated document is reported at its end")
{
  const auto message = error_of("m=json:a", "{\"a\": [1, 2,");
  CHECK_THAT(message, Catch::Contains("not valid JSON"));
  CHECK_THAT(message, Catch::Contains("line 1, column 1"));
}
