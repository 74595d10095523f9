// Every extraction error names the metric and the source it read (a stream or a file), as
// docs/benchmarks.md says: read from stderr here, so that "stdout" by default cannot pass for it.
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace ej::measure;

namespace {

std::string error_reading_stderr(std::string_view spec, std::string_view err)
{
  try {
    extract(parse_metric_spec(spec), ExtractInput{"", err, nullptr});
  } catch (const ej::Error& error) {
    return error.what();
  }
  return "(no error)";
}

constexpr std::string_view k_gbench = R"({"benchmarks": [
  {"name": "BM_Sum/8", "run_name": "BM_Sum/8", "run_type": "iteration", "real_time": 10, "cpu_time": 9,
   "time_unit": "ns"}]})";
constexpr std::string_view k_nvbench = R"({"benchmarks": [{"name": "copy", "devices": [0], "axes": [],
  "states": [{"name": "Device=0", "device": 0, "axis_values": [],
              "summaries": [{"tag": "nv/cold/time/gpu/mean", "hint": "duration",
                             "data": [{"name": "value", "type": "float64", "value": "1e-05"}]}],
              "is_skipped": false}]}]})";

} // namespace

TEST_CASE("every reader's error names the stream it read, besides the metric and what it expected")
{
  const auto console = ej::test::read_fixture("gbench_console_bigo.txt");
  const auto hyperfine = ej::test::read_fixture("hyperfine_bencher_two_commands.json");
  const auto pytest = ej::test::read_fixture("pytest_benchmark_several_units.json");
  const auto markdown = ej::test::read_fixture("nvbench_throughput_2gpus.md");
  const auto change = ej::test::read_fixture("criterion_change_estimates_fib20_slow.json");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"t=gbench:stderr:BM_Nope", std::string(k_gbench)},
      {"t=gbench-console:stderr:BM_Nope", console},
      {"t=hyperfine:stderr:nope", hyperfine},
      {"t=hyperfine:stderr:", R"({"results": [{"command": "a"}]})"},
      {"m=json:stderr:a.b", R"({"a": {"c": 1}})"},
      {"m=json:stderr:a", R"({"a": []})"},
      {"m=json:stderr:a", R"({"a": "fast"})"},
      {"m=json:stderr:a", R"({"a": {"b": 1}})"},
      {"m=kv:stderr:rate", "rate: nan\n"},
      {"g=nvbench:stderr:nope", std::string(k_nvbench)},
      {"g=nvbench:stderr:copy/nv/cold/time/cpu/mean", std::string(k_nvbench)},
      {"g=nvbench:stderr:nope", markdown},
      {"g=nvbench:stderr:", "no results here\n"},
      {"m=pytest:stderr:#nope", pytest},
      {"t=torch:stderr:", "<torch.utils.benchmark.utils.common.Measurement object at 0x1>\nx\n  nan us\n"},
      {"c=criterion:stderr:#slope", change},
      {"m=regex:stderr:v=(\\S+)", "v=fast\n"},
      {"m=regex:stderr:v=([0-9.]+ \\S+)", "v=1\n"},
      {"m=regex:stderr:v=([0-9.]+)", "v=1 ms\nv=2 tok/s\n"},
  };
  for (const auto& [spec, err] : cases) {
    INFO(spec);
    const auto message = error_reading_stderr(spec, err);
    CHECK_THAT(message, Catch::Contains("metric '") && Catch::Contains("stderr"));
    CHECK_THAT(message, !Catch::Contains("(no error)"));
  }
}
