// nvbench's markdown (stdout, --md), on real outputs: keyed as --json is, one value per state.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <set>

using namespace ej::measure;
using ej::measure::test::extract_text;

namespace {

std::set<std::string> keys_of(const std::vector<ExtractedValue>& values)
{
  std::set<std::string> keys;
  for (const auto& value : values) {
    keys.insert(value.key);
  }
  return keys;
}

} // namespace

TEST_CASE("nvbench markdown gives the GPU time of each row in seconds, with the GPU noise beside it")
{
  const auto text = ej::test::read_fixture("nvbench_skip_2gpus.md");
  const auto all = extract_text("gpu_s=nvbench", text);
  // 15 + 4 + 16 states on each of 2 GPUs; the tables list the ones that ran, the log the skipped
  REQUIRE(all.size() == 70);
  CHECK(keys_of(all).size() == 70);
  CHECK(all[0].key == "runtime_skip[Device=0,Duration=0,Kramble=Foo]");
  CHECK(all[0].value == Approx(4.411e-6));
  CHECK(all[0].unit == "s");
  CHECK(*all[0].relative_stdev == Approx(0.1069)); // the Noise after GPU Time, not CPU Time's 3.46%
  const auto ms = extract_text("gpu_s=nvbench:skip_overload", text);
  REQUIRE(ms.size() == 8);
  CHECK(ms[0].key == "skip_overload[Device=0,In=I32,Out=I64]");
  CHECK(ms[0].value == Approx(1.004e-3));
  CHECK(ms[4].key == "skip_overload[Device=0,In=I32,Out=I32]");
  CHECK(ms[4].skipped);
  CHECK(ms[4].note == "InputType == OutputType.");
}

TEST_CASE("nvbench markdown reads the CPU, batch and bandwidth columns by their --json tags")
{
  const auto text = ej::test::read_fixture("nvbench_throughput_2gpus.md");
  const auto cpu = extract_text("t=nvbench:throughput_bench/nv/cold/time/cpu/mean", text);
  REQUIRE(cpu.size() == 2);
  // NumElements and DataSize are summaries, not axes: the log's Run lines say which are axes
  CHECK(cpu[0].key == "throughput_bench[Device=0]");
  CHECK(cpu[1].key == "throughput_bench[Device=1]");
  CHECK(cpu[0].value == Approx(270.938e-6));
  CHECK(*cpu[0].relative_stdev == Approx(0.0112));
  const auto batch = extract_text("t=nvbench:/nv/batch/time/gpu/mean", text);
  CHECK(batch[1].value == Approx(275.412e-6));
  CHECK_FALSE(batch[1].relative_stdev);
  auto spec = parse_metric_spec("bw=nvbench:/nv/cold/bw/global/bytes_per_second");
  spec.unit = "GB/s";
  const auto bw = extract_text(spec, text);
  CHECK(bw[0].value == Approx(506.889));
  CHECK(bw[0].unit == "GB/s");
  const auto items = extract_text("e=nvbench:/nv/cold/bw/item_rate", text);
  CHECK(items[0].value == Approx(63.361e9));
  CHECK(items[0].unit == "items/s");
  const auto util = extract_text("u=nvbench:/BWPeak", text); // any other column by its header
  CHECK(util[0].value == Approx(58.24));
  CHECK_THROWS_WITH(extract_text("t=nvbench:/nv/cold/time/gpu/max", text),
                    Catch::Contains("no column 'nv/cold/time/gpu/max'") && Catch::Contains("Batch GPU"));
  CHECK_THROWS_WITH(extract_text("t=nvbench:nope", text), Catch::Contains("it has: throughput_bench"));
}

TEST_CASE("nvbench markdown keys pow2 axes as 2^N and axes whose names hold blanks, and names the GPU of one")
{
  const auto text = ej::test::read_fixture("nvbench_convolution_rtx2060.md");
  const auto all = extract_text("gpu_s=nvbench", text);
  REQUIRE(all.size() == 210); // the log's 210 runs: 208 rows and 2 skipped
  CHECK(keys_of(all).size() == 210);
  CHECK(all[0].key ==
        "Convolution 1D Basic (Different Array Sizes)[Device=0,Array size=2^1,Mask width=5,Block dim=2^9]");
  const auto grid = extract_text("gpu_s=nvbench:Convolution 2D Tiled (Different Block and Grid Sizes)", text);
  CHECK(grid[0].key ==
        "Convolution 2D Tiled (Different Block and Grid Sizes)[Device=0,Axis size=2^13,Num channels=1,"
        "Mask width=5,Block axis dim=2^3]");
  CHECK(grid[0].value == Approx(13.662e-3));
  CHECK(grid[grid.size() - 2].skipped);
  CHECK(grid[grid.size() - 2].key ==
        "Convolution 2D Tiled (Different Block and Grid Sizes)[Device=0,Axis size=2^13,Num "
        "channels=1,Mask width=5,Block axis dim=2^1]");
  CHECK(grid.back().note == "Mask width is larger than block dim");

  const auto a30 = extract_text("gpu_s=nvbench", ej::test::read_fixture("nvbench_flash_attn_varlen_a30.md"));
  REQUIRE(a30.size() == 2);
  CHECK(a30[1].key ==
        "run_mha_varlen_fwd[Device=0,num_seqs=8,seq_len=4096,num_heads=32,num_kv_heads=8,head_size=128,"
        "window_left=512,window_right=512,causal=1]");
  CHECK(a30[1].value == Approx(4.447e-3));
  CHECK(*a30[1].relative_stdev == Approx(0.0059));
}

TEST_CASE("nvbench markdown without its log takes the columns before Samples as the axes")
{
  const auto text = ej::test::read_fixture("nvbench_throughput_2gpus.md");
  const auto tables =
      text.substr(text.find("# Benchmark Results")); // as `--md` output pasted without the log
  const auto values = extract_text("g=nvbench", tables);
  REQUIRE(values.size() == 2);
  // the log alone tells axes from summaries: without it, NumElements and DataSize key the states too
  CHECK(values[0].key == "throughput_bench[Device=0,NumElements=16777216,DataSize=64.000 MiB]");
  CHECK(values[0].value == Approx(264.787e-6));
}

TEST_CASE("nvbench markdown cut short or without results is an error naming the metric and the source")
{
  const auto text = ej::test::read_fixture("nvbench_flash_attn_varlen_a30.md");
  const auto cut = text.substr(0, text.rfind("4.449 ms |")); // the last row loses its last cell
  CHECK_THROWS_WITH(extract_text("g=nvbench", cut), Catch::Contains("metric 'g'") &&
                                                        Catch::Contains("stdout") &&
                                                        Catch::Contains("cut short"));
  const auto no_tables = text.substr(0, text.find("## run_mha_varlen_fwd"));
  CHECK_THROWS_WITH(extract_text("g=nvbench", no_tables), Catch::Contains("holds no states"));
  CHECK_THROWS_WITH(extract_text("g=nvbench", "# Benchmark Results\n"),
                    Catch::Contains("metric 'g'") && Catch::Contains("holds no NVBench results"));
}

TEST_CASE(
    "nvbench keys a state the same in its --json and its markdown, with the device, on one GPU or several")
{
  // One GPU: before, the markdown keyed the state "throughput_bench" where --json of a run on two
  // GPUs keyed it "throughput_bench[Device=0]"; now the state is named as nvbench names it.
  auto one_gpu = ej::test::read_fixture("nvbench_throughput_2gpus.md");
  one_gpu.erase(one_gpu.find("Run:  throughput_bench [Device=1]"),
                one_gpu.find("```\n\n# Benchmark Results") -
                    one_gpu.find("Run:  throughput_bench [Device=1]"));
  one_gpu.erase(one_gpu.find("### [1] Quadro GP100"));
  const auto markdown = extract_text("t=nvbench:throughput_bench", one_gpu);
  REQUIRE(markdown.size() == 1);
  CHECK(markdown[0].key == "throughput_bench[Device=0]");

  constexpr std::string_view k_json =
      R"({"benchmarks": [{"name": "throughput_bench", "devices": [0], "axes": [],
    "states": [{"name": "Device=0", "device": 0, "axis_values": [],
                "summaries": [{"tag": "nv/cold/time/gpu/mean", "hint": "duration",
                               "data": [{"name": "value", "type": "float64", "value": "0.000264787"}]},
                              {"tag": "nv/cold/bw/global/utilization", "hint": "percentage",
                               "data": [{"name": "value", "type": "float64", "value": "0.5824"}]}],
                "is_skipped": false}]}]})";
  const auto json = extract_text("t=nvbench:throughput_bench", k_json);
  REQUIRE(json.size() == 1);
  CHECK(json[0].key == markdown[0].key);
  CHECK(json[0].value == Approx(markdown[0].value));
  CHECK(json[0].unit == markdown[0].unit);

  // Units: both store seconds, B/s and items/s (converted from what the markdown prints), and the
  // bandwidth utilization as a percentage (--json's fraction 0.5824 is 58.24%).
  CHECK(markdown[0].unit == "s");
  const auto util_json = extract_text("u=nvbench:/nv/cold/bw/global/utilization", k_json);
  const auto util_md =
      extract_text("u=nvbench:/BWPeak", ej::test::read_fixture("nvbench_throughput_2gpus.md"));
  CHECK(util_json[0].unit == "%");
  CHECK(util_json[0].value == Approx(58.24));
  CHECK(util_md[0].unit == "%");
  CHECK(util_md[0].value == Approx(58.24));
  const auto bw = extract_text("b=nvbench:/nv/cold/bw/global/bytes_per_second", one_gpu);
  CHECK(bw[0].unit == "B/s");
  CHECK(bw[0].value == Approx(506.889e9));
}
