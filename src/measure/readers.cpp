#include "measure/readers.h"

#include <array>

namespace ej::measure {

namespace {

std::string seconds(const MetricSpec&)
{
  return "s";
}

// clang-format off
const std::array k_readers{
    Reader{ExtractorKind::Regex, "regex", "regex:PATTERN",
           "an RE2 pattern with one capture group; every match is a sample",
           "--metric 'verify_ms=regex:verify: ([0-9.]+) ms'", read_regex, check_regex, nullptr},
    Reader{ExtractorKind::Kv, "kv", "kv:KEY[;per=KEY2]",
           "'KEY: value unit' or 'KEY=value' lines; ';per=KEY2' keys each value by the last KEY2 line "
           "before it (one series per block)",
           "--metric 'tok_s=kv:Output token throughput (tok/s)'", read_kv, check_kv, unit_of_kv},
    Reader{ExtractorKind::Json, "json", "json:PATH[;per=FIELD]",
           "a JSON Pointer or dotted path in a JSON document, or in the last record of JSON Lines; "
           "';per=FIELD' reads every record, one series per value of FIELD",
           "--metric 'ttft=json:median_ttft_ms;per=request_rate@results.jsonl'", read_json, check_json,
           unit_of_json},
    Reader{ExtractorKind::Nvbench, "nvbench", "nvbench[:BENCH[/TAG]]",
           "NVBench --json: one value per state, keyed BENCH[Axis=value,...]",
           "--metric 'gpu_s=nvbench:copy_sweep@out.json'", read_nvbench, nullptr, unit_of_nvbench},
    Reader{ExtractorKind::Gbench, "gbench", "gbench[:BENCH][#FIELD]",
           "Google Benchmark JSON: one value per row (aggregates flagged), keyed by the row's name",
           "--metric 'sum_ns=gbench:BM_Sum/1024@gb.json'", read_gbench, check_gbench, unit_of_gbench},
    Reader{ExtractorKind::Hyperfine, "hyperfine", "hyperfine[:COMMAND|INDEX]",
           "hyperfine --export-json: every entry of 'times' is a sample, keyed by the command",
           "--metric 't=hyperfine@h.json'", read_hyperfine, nullptr, seconds},
    Reader{ExtractorKind::Nccl, "nccl", "nccl[:[PLACE/]FIELD]",
           "nccl-tests tables: one series per row, keyed size=BYTES,out-of-place|in-place; FIELD time "
           "(us), algbw, busbw (default) or avg_busbw (GB/s)",
           "--metric 'busbw=nccl:busbw'", read_nccl, check_nccl, unit_of_nccl},
};
// clang-format on

} // namespace

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
  for (const auto& reader : k_readers) {
    if (reader.name == name) {
      return &reader;
    }
  }
  return nullptr;
}

std::string reader_names()
{
  std::string out;
  for (const auto& reader : k_readers) {
    out += out.empty() ? "" : ", ";
    out += reader.name;
  }
  return out;
}

} // namespace ej::measure
