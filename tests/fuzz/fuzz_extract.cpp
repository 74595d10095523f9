// libFuzzer target: every reader (readers.cpp) on the input as a benchmark's stdout, through
// representative specs of each kind.
#include "measure/extract.h"
#include "util/error.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

const std::vector<ej::measure::MetricSpec>& specs()
{
  static const auto parsed = [] {
    const std::array texts = {
        "m=regex:x=([0-9.]+)",
        "m=regex:^time: ([0-9.,_]+)",
        "m=kv:rate",
        "m=kv:Output token throughput (tok/s);per=Traffic request rate",
        "m=json:",
        "m=json:/results/0/mean",
        "m=json:median_ttft_ms;per=request_rate",
        "m=nvbench",
        "m=nvbench:copy/nv/cold/time/cpu/mean",
        "m=gbench",
        "m=gbench:BM_Sum#cpu_time",
        "m=gbench-console",
        "m=gbench-console:BM_Sum#cpu_time",
        "m=hyperfine",
        "m=hyperfine:0",
        "m=nccl",
        "m=nccl:in-place/time",
        "m=nccl:avg_busbw",
        "m=sglang-one-batch",
        "m=sglang-one-batch:prefill_latency",
        "m=pytest",
        "m=pytest:#mean",
        "m=catch2",
        "m=catch2:#std_dev",
        "m=criterion",
        "m=criterion:#samples",
        "m=torch",
        "m=perf-stat",
        "m=perf-stat:cycles",
        "m=perf-stat:elapsed",
    };
    std::vector<ej::measure::MetricSpec> out;
    for (const auto* text : texts) {
      out.push_back(ej::measure::parse_metric_spec(text));
    }
    return out;
  }();
  return parsed;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ej::measure::ExtractInput input;
  input.out = ej::measure::TextSource(text);
  for (const auto& spec : specs()) {
    try {
      (void)ej::measure::extract(spec, input);
    } catch (const ej::Error&) {
      // output the metric cannot be read from, with its message
    }
  }
  return 0;
}
