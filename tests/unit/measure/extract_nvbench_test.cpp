#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <set>

using namespace ej::measure;
using ej::measure::test::extract_text;

namespace {

// The shape of `--json` output of one benchmark on one GPU: a type axis, a pow2 axis, one
// skipped state (abridged to the fields ej reads, values as nvbench writes them: strings).
constexpr std::string_view k_copy_sweep = R"({
  "meta": {"version": {"json": {"string": "1.0.0"}}},
  "devices": [{"id": 0, "name": "NVIDIA H100"}],
  "benchmarks": [{
    "name": "copy_sweep", "index": 0, "devices": [0],
    "axes": [
      {"name": "T", "type": "type", "flags": "", "values": [{"input_string": "U8"}, {"input_string": "F64"}]},
      {"name": "Elements", "type": "int64", "flags": "pow2",
       "values": [{"input_string": "20", "description": "2^20 = 1048576", "value": 1048576}]}
    ],
    "states": [
      {"name": "Device=0 T=U8 Elements=2^20", "device": 0,
       "axis_values": [{"name": "T", "type": "string", "value": "U8"},
                       {"name": "Elements", "type": "int64", "value": "1048576"}],
       "summaries": [
         {"tag": "nv/cold/time/gpu/mean", "hint": "duration",
          "data": [{"name": "value", "type": "float64", "value": "2.5e-05"}]},
         {"tag": "nv/cold/time/gpu/stdev/relative", "hint": "percentage",
          "data": [{"name": "value", "type": "float64", "value": "0.012"}]},
         {"tag": "nv/cold/bw/global/bytes_per_second", "hint": "byte_rate",
          "data": [{"name": "value", "type": "float64", "value": "8.4e+10"}]}
       ],
       "is_skipped": false},
      {"name": "Device=0 T=F64 Elements=2^20", "device": 0,
       "axis_values": [{"name": "T", "type": "string", "value": "F64"},
                       {"name": "Elements", "type": "int64", "value": "1048576"}],
       "summaries": null, "is_skipped": true, "skip_reason": "F64 not supported here"}
    ]
  }]
})";

} // namespace

TEST_CASE("nvbench yields the GPU mean time of each state with its noise, keyed by axis values")
{
  const auto values = extract_text("gpu_s=nvbench:copy_sweep", k_copy_sweep);
  REQUIRE(values.size() == 2);
  CHECK(values[0].key == "copy_sweep[Device=0,T=U8,Elements=2^20]"); // as nvbench names the state
  CHECK(values[0].value == 2.5e-05);
  CHECK(values[0].unit == "s");
  REQUIRE(values[0].relative_stdev.has_value());
  CHECK(*values[0].relative_stdev == 0.012);
  CHECK_FALSE(values[0].skipped);
}

TEST_CASE("nvbench returns skipped states as skipped entries with their reason")
{
  const auto values = extract_text("gpu_s=nvbench:copy_sweep", k_copy_sweep);
  REQUIRE(values.size() == 2);
  CHECK(values[1].key == "copy_sweep[Device=0,T=F64,Elements=2^20]");
  CHECK(values[1].skipped);
  CHECK(values[1].note == "F64 not supported here");
}

TEST_CASE("nvbench reads any summary tag and converts durations to the metric's unit")
{
  const auto bw = extract_text("bw=nvbench:copy_sweep/nv/cold/bw/global/bytes_per_second", k_copy_sweep);
  CHECK(bw[0].value == 8.4e10);
  CHECK(bw[0].unit == "B/s");
  CHECK_FALSE(bw[0].relative_stdev.has_value());

  auto spec = parse_metric_spec("gpu=nvbench:copy_sweep");
  spec.unit = "us";
  const auto us = extract_text(spec, k_copy_sweep);
  CHECK(us[0].value == Approx(25.0));
  CHECK(us[0].unit == "us");
  spec.unit = "tok/s";
  CHECK_THROWS_WITH(extract_text(spec, k_copy_sweep), Catch::Contains("metric 'gpu'") &&
                                                          Catch::Contains("'s' (a time)") &&
                                                          Catch::Contains("'tok/s' (a rate of tok)"));
}

TEST_CASE("nvbench byte rates convert to the --unit instead of being relabelled")
{
  // Before, --unit GB/s left 8.4e10 as it was and called it GB/s.
  auto spec = parse_metric_spec("bw=nvbench:copy_sweep/nv/cold/bw/global/bytes_per_second");
  spec.unit = "GB/s";
  const auto bw = extract_text(spec, k_copy_sweep);
  CHECK(bw[0].value == Approx(84.0));
  CHECK(bw[0].unit == "GB/s");
  spec.unit = "GiB/s";
  CHECK(extract_text(spec, k_copy_sweep)[0].value == Approx(8.4e10 / 1073741824.0));
}

TEST_CASE("nvbench float axes are keyed by the text nvbench was given, not the binary float")
{
  // From nvbench's python/scripts/test_ref.json (single_float64_axis), abridged.
  constexpr std::string_view k_float_axis = R"({"benchmarks": [{
    "name": "single_float64_axis", "devices": [0],
    "axes": [{"name": "Duration", "type": "float64", "flags": "",
              "values": [{"input_string": "0.0003", "description": "", "value": 0.00030000000000000003}]}],
    "states": [{"name": "Device=0 Duration=0.0003", "device": 0,
                "axis_values": [{"name": "Duration", "type": "float64", "value": "0.00030000000000000003"}],
                "summaries": [{"tag": "nv/cold/time/gpu/mean", "hint": "duration",
                               "data": [{"name": "value", "type": "float64", "value": "0.000312"}]}],
                "is_skipped": false}]}]})";
  const auto values = extract_text("t=nvbench", k_float_axis);
  REQUIRE(values.size() == 1);
  CHECK(values[0].key == "single_float64_axis[Device=0,Duration=0.0003]");
}

TEST_CASE("nvbench says which benchmarks and tags exist when the asked one is absent")
{
  CHECK_THROWS_WITH(extract_text("g=nvbench:copy", k_copy_sweep), Catch::Contains("no benchmark 'copy'"));
  CHECK_THROWS_WITH(extract_text("g=nvbench:copy", k_copy_sweep), Catch::Contains("copy_sweep"));
  const auto no_tag = [] {
    try {
      extract_text("g=nvbench:copy_sweep/nv/cold/time/cpu/mean", k_copy_sweep);
    } catch (const ej::Error& error) {
      return std::string(error.what());
    }
    return std::string();
  }();
  CHECK_THAT(no_tag, Catch::Contains("no state in stdout has the summary 'nv/cold/time/cpu/mean'"));
  CHECK_THAT(no_tag, Catch::Contains("nv/cold/time/gpu/mean"));
  CHECK_THROWS_WITH(extract_text("g=nvbench", R"({"results": []})"), Catch::Contains("not nvbench's"));
}

TEST_CASE("a non-finite nvbench value is rejected naming the metric and the text")
{
  std::string json(k_copy_sweep);
  json.replace(json.find("2.5e-05"), 7, "nan");
  CHECK_THROWS_WITH(extract_text("gpu_s=nvbench:copy_sweep", json),
                    Catch::Contains("metric 'gpu_s': 'nan' is not a finite number (in stdout)"));
}

TEST_CASE("nvbench reads the real two-GPU output of the fixtures with unique, stable keys")
{
  const auto dir = ej::test::fixtures_dir();
  REQUIRE(std::filesystem::is_regular_file(dir / "nvbench_axes_ref.json"));
  REQUIRE(std::filesystem::is_regular_file(dir / "nvbench_axes_cmp.json"));
  const auto json = ej::test::read_text(dir / "nvbench_axes_ref.json");
  const auto all = extract_text("gpu_s=nvbench", json);
  CHECK(all.size() == 126);
  std::set<std::string> keys;
  std::size_t skipped = 0;
  for (const auto& value : all) {
    keys.insert(value.key);
    skipped += value.skipped ? 1 : 0;
  }
  CHECK(keys.size() == 126);
  CHECK(skipped == 38);

  const auto simple = extract_text("gpu_s=nvbench:simple", json);
  REQUIRE(simple.size() == 2);
  CHECK(simple[0].key == "simple[Device=0]");
  CHECK(simple[0].value == 0.0010034715849794225);
  CHECK(*simple[0].relative_stdev == 0.0005782350585973689);

  const auto grid = extract_text("gpu_s=nvbench:copy_sweep_grid_shape", json);
  CHECK(grid[0].key == "copy_sweep_grid_shape[Device=0,BlockSize=2^6,NumBlocks=2^6]");

  const auto conversions = extract_text("gpu_s=nvbench:copy_type_conversion_sweep", json);
  CHECK(conversions[0].key == "copy_type_conversion_sweep[Device=0,In=I8,Out=I8]");
  CHECK(conversions[0].skipped);
  CHECK(conversions[0].note == "Not a conversion: InputType == OutputType.");

  // The paired run has the same states in the same order: its keys line up for comparisons.
  const auto cmp = extract_text("gpu_s=nvbench", ej::test::read_text(dir / "nvbench_axes_cmp.json"));
  REQUIRE(cmp.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(cmp[i].key == all[i].key);
  }

  // bandwidth exists only in some benchmarks: the others come back marked, not as zeros
  const auto bw = extract_text("bw=nvbench:/nv/cold/bw/global/bytes_per_second", json);
  CHECK(bw.size() == 126);
  CHECK(bw[0].skipped);
  CHECK(bw[0].note == "no summary 'nv/cold/bw/global/bytes_per_second' in this state");
}

TEST_CASE("nvbench reads --json FILE through @FILE")
{
  ej::test::TempDir dir;
  ej::test::write_text(dir / "nv.json", std::string(k_copy_sweep));
  ExtractInput input{"| T | Elements | GPU Time |\n", "",
                     [&dir](const MetricSpec& metric) { return TextSource::open(dir.path() / metric.file); }};
  const auto values = extract(parse_metric_spec("gpu_s=nvbench:copy_sweep@nv.json"), input);
  CHECK(values.size() == 2);
}
