#include "measure/readers.h"

#include <array>

namespace ej::measure {

namespace {

std::string seconds(const MetricSpec&)
{
  return "s";
}

std::string gbench_console_unit(const MetricSpec&)
{
  return "ns";
}

// clang-format off
const std::array k_readers{
    Reader{ExtractorKind::Regex, "regex:PATTERN",
           "an RE2 pattern with one capture group; every match is a sample",
           "--metric 'verify_ms=regex:verify: ([0-9.]+) ms'", nullptr, check_regex, nullptr,
           scan_regex},
    Reader{ExtractorKind::Kv, "kv:KEY[;per=KEY2]",
           "'KEY: value unit' or 'KEY=value' lines; ';per=KEY2' keys each value by the last KEY2 line "
           "before it (one series per block)",
           "--metric 'tok_s=kv:Output token throughput (tok/s);per=Traffic request rate'", nullptr, check_kv, unit_of_kv,
           scan_kv},
    Reader{ExtractorKind::Json, "json:PATH[;per=FIELD]",
           "a JSON Pointer or dotted path in a JSON document, or in the last record of JSON Lines; "
           "';per=FIELD' reads every record, one series per value of FIELD",
           "--metric 'ttft=json:median_ttft_ms;per=request_rate@results.jsonl'", read_json, check_json,
           unit_of_json},
    Reader{ExtractorKind::Nvbench, "nvbench[:BENCH[/TAG]]",
           "NVBench --json or its markdown tables (stdout, --md): one value per state, keyed "
           "BENCH[Device=N,Axis=value,...] in both, times in s",
           "--metric 'gpu_s=nvbench:copy_sweep@out.json'", read_nvbench, nullptr, unit_of_nvbench},
    Reader{ExtractorKind::Gbench, "gbench[:BENCH][#FIELD]",
           "Google Benchmark JSON: one value per row (aggregates flagged), keyed by the row's name; BENCH also "
           "selects its family (BM_Sum: BM_Sum/8 ...)",
           "--metric 'sum_ns=gbench:BM_Sum/1024@gb.json'", read_gbench, check_gbench, unit_of_gbench},
    Reader{ExtractorKind::GbenchConsole, "gbench-console[:BENCH][#cpu_time]",
           "Google Benchmark's console table: one value per row, Time (or CPU) in the row's unit, rows selected "
           "as gbench does",
           "--metric 'sum_ns=gbench-console:BM_Sum/1024_median'", read_gbench_console, check_gbench_console,
           gbench_console_unit},
    Reader{ExtractorKind::Hyperfine, "hyperfine[:COMMAND|INDEX]",
           "hyperfine --export-json: every entry of 'times' is a sample, keyed by the command",
           "--metric 't=hyperfine@h.json'", read_hyperfine, nullptr, seconds},
    Reader{ExtractorKind::Nccl, "nccl[:[PLACE/]FIELD]",
           "nccl-tests tables: one series per row, keyed size=BYTES,out-of-place|in-place; FIELD time "
           "(us), algbw, busbw (default) or avg_busbw (GB/s)",
           "--metric 'busbw=nccl:busbw'", read_nccl, check_nccl, unit_of_nccl},
    Reader{ExtractorKind::SglangOneBatch, "sglang-one-batch[:FIELD]",
           "SGLang bench_one_batch, the benchmark section (not the warmup): FIELD prefill_, decode_ (median) "
           "or total_ latency (s) or throughput (tok/s, decode_throughput by default)",
           "--metric 'decode=sglang-one-batch:decode_throughput'", read_sglang_one_batch, check_sglang_one_batch,
           unit_of_sglang_one_batch},
    Reader{ExtractorKind::Pytest, "pytest[:FULLNAME][#FIELD]",
           "pytest-benchmark --benchmark-json: every round of stats.data is a sample (or a stats FIELD: mean, "
           "median, ops...), keyed by fullname",
           "--metric 'fib_s=pytest:bench.py::test_fib_20@bench.json'", read_pytest, check_pytest,
           unit_of_pytest},
    Reader{ExtractorKind::Catch2, "catch2[:NAME][#STAT]",
           "Catch2's console benchmark table or its -r xml report (ns): the mean (or STAT: low_mean, high_mean, "
           "std_dev...) of each benchmark, keyed by its name",
           "--metric 'fib_us=catch2:Fibonacci 20'", read_catch2, check_catch2, nullptr},
    Reader{ExtractorKind::Criterion, "criterion[:ID][#STAT]",
           "Criterion.rs estimates.json, sample.json (every sample, per iteration) or cargo-criterion "
           "--message-format=json: the mean (or STAT: median, slope, typical, samples) keyed by the benchmark id; "
           "change/estimates.json in %",
           "--metric 'q_ns=criterion:#median@target/criterion/fib/new/estimates.json'", read_criterion,
           check_criterion, unit_of_criterion},
    Reader{ExtractorKind::Torch, "torch[:TITLE]",
           "torch.utils.benchmark Measurement printouts (with or without their '<...Measurement object at ...>' "
           "line): one value per statement, keyed by its title, in the unit printed (ns, us, ms)",
           "--metric 'dot_us=torch:batched_dot_bmm(x, x)'", read_torch, nullptr, nullptr},
    Reader{ExtractorKind::PerfStat, "perf-stat[:EVENT]",
           "perf stat's counters (any locale's digit groups, or -x CSV with any separator), keyed by event; "
           "'cycles' also selects cycles:u and cpu_core/cycles/; elapsed, user and sys are the times (s), "
           "task-clock ms, counts have no unit",
           "--metric 'cycles=perf-stat:stderr:cycles'", read_perf_stat, nullptr, nullptr},
};
// clang-format on

} // namespace

std::vector<ExtractedValue> read_with(LineScanner& scanner, const TextSource& source)
{
  source.for_each_chunk([&scanner](std::string_view lines) { scanner.read(lines); });
  return scanner.finish(source);
}

std::span<const Reader> readers()
{
  return k_readers;
}

const Reader& reader_for(ExtractorKind kind)
{
  for (const auto& reader : k_readers) {
    if (reader.kind == kind) {
      return reader;
    }
  }
  return k_readers.front(); // every kind has a row; the table's test sees to it
}

const Reader* find_reader(std::string_view name)
{
  const auto kind = parse_extractor_kind(name);
  return kind ? &reader_for(*kind) : nullptr;
}

std::string reader_names()
{
  std::string out;
  for (const auto& reader : k_readers) {
    out += out.empty() ? "" : ", ";
    out += to_string(reader.kind);
  }
  return out;
}

} // namespace ej::measure
