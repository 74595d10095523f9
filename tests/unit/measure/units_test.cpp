#include "measure/units.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;

namespace {

Unit unit(std::string_view text)
{
  const auto parsed = parse_unit(text);
  INFO("unit " << text);
  REQUIRE(parsed);
  return *parsed;
}

double convert_text(double value, std::string_view from, std::string_view to)
{
  return convert(value, unit(from), unit(to));
}

} // namespace

TEST_CASE("units are read in their common spellings and given ej's")
{
  CHECK(unit("usec").symbol == "us");
  CHECK(unit("\xC2\xB5s").symbol == "us"); // micro sign
  CHECK(unit("\xCE\xBCs").symbol == "us"); // Greek mu
  CHECK(unit("Seconds").symbol == "s");
  CHECK(unit("msec").symbol == "ms");
  CHECK(unit("(ms)").symbol == "ms");
  CHECK(unit("tokens/s").symbol == "tok/s");
  CHECK(unit("tok/s").dimension == Dimension::Rate);
  CHECK(unit("requests/sec").symbol == "req/s");
  CHECK(unit("GB/s").dimension == Dimension::ByteRate);
  CHECK(unit("GBps").symbol == "GB/s");
  CHECK(unit("Gbps").symbol == "Gbit/s");
  CHECK(unit("TFLOPS").symbol == "TFLOP/s");
  CHECK(unit("it/s").symbol == "it/s");
  CHECK(unit("frames/s").thing == "frames");
  CHECK(unit("%").dimension == Dimension::Percent);
  CHECK(unit("KB").symbol == "kB");
  CHECK(unit("tokens").dimension == Dimension::Count);
  CHECK_FALSE(parse_unit(""));
  CHECK_FALSE(parse_unit("on"));
  CHECK_FALSE(parse_unit("/s"));
  CHECK(canonical_unit(" usec ") == "us");
  CHECK(canonical_unit("widgets") == "widgets");
}

TEST_CASE("times, sizes and rates convert exactly where the factors allow")
{
  CHECK(convert_text(1500, "ns", "us") == 1.5);
  CHECK(convert_text(2.5, "us", "ns") == 2500);
  CHECK(convert_text(90, "s", "min") == 1.5);
  CHECK(convert_text(2, "h", "s") == 7200);
  CHECK(convert_text(0.25, "s", "ms") == 250);
  CHECK(convert_text(1, "GiB", "MiB") == 1024);
  CHECK(convert_text(1, "GB", "MB") == 1000);
  CHECK(convert_text(1, "GiB", "B") == 1073741824.0);
  CHECK(convert_text(6.23e9, "B/s", "GB/s") == Approx(6.23));
  CHECK(convert_text(1, "GiB/s", "MB/s") == Approx(1073.741824));
  CHECK(convert_text(8, "Gbit/s", "GB/s") == 1);
  CHECK(convert_text(3, "tok/ms", "tok/s") == 3000);
  CHECK(convert_text(120, "req/min", "req/s") == 2);
  CHECK(convert_text(2e12, "FLOP/s", "TFLOP/s") == 2);
}

TEST_CASE("units that measure different things do not convert")
{
  CHECK_FALSE(convertible(unit("ms"), unit("GB/s")));
  CHECK_FALSE(convertible(unit("tok/s"), unit("req/s")));
  CHECK_FALSE(convertible(unit("B"), unit("B/s")));
  CHECK_THROWS_AS(convert_text(1, "tok/s", "items/s"), ej::Error);
  CHECK_THROWS_WITH(convert_text(1, "ms", "GB/s"),
                    Catch::Contains("a time") && Catch::Contains("a byte rate"));
}

TEST_CASE("units written in keys and names are found")
{
  CHECK(unit_in_name("Median TTFT (ms)")->symbol == "ms");
  CHECK(unit_in_name("Output token throughput (tok/s)")->symbol == "tok/s");
  CHECK(unit_in_name("Request throughput (req/s)")->symbol == "req/s");
  CHECK(unit_in_name("Benchmark duration (s)")->symbol == "s");
  CHECK(unit_in_name("p99_itl_ms")->symbol == "ms");
  CHECK(unit_in_name("latency_us")->symbol == "us");
  CHECK(unit_in_name("wall_s")->symbol == "s");
  CHECK(unit_in_name("tok_s")->symbol == "tok/s");
  CHECK(unit_in_name("bytes_per_second")->symbol == "B/s");
  CHECK(unit_in_name("items_per_second")->symbol == "items/s");
  CHECK(unit_in_name("peak_rss_mib")->symbol == "MiB");
  CHECK(unit_in_name("cache_hit_pct")->symbol == "%");
  // a minimum, not minutes; a word that is no unit
  CHECK_FALSE(unit_in_name("ttft_min"));
  CHECK_FALSE(unit_in_name("Total input tokens"));
  CHECK_FALSE(unit_in_name("throughput"));
  CHECK_FALSE(unit_in_name("ms"));
}

TEST_CASE("rates are better higher, times and sizes lower, counts and percentages say nothing")
{
  CHECK(higher_is_better(unit("tok/s")) == true);
  CHECK(higher_is_better(unit("GiB/s")) == true);
  CHECK(higher_is_better(unit("ms")) == false);
  CHECK(higher_is_better(unit("MiB")) == false);
  CHECK_FALSE(higher_is_better(unit("%")));
  CHECK_FALSE(higher_is_better(unit("tokens")));
}
