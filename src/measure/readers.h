#pragma once

// The readers: one per output format, each in its own read_<kind>.cpp with one entry point
// (the text of an output or result file in, keyed values with units out), and one table that
// registers them. metric_spec parsing, `ej bench add --help` and docs/benchmarks.md's list of readers are
// written from this table.

#include "measure/extract.h"
#include "measure/metric_spec.h"
#include "measure/value_list.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// The values of one metric in one output, in output order, each with the unit it came in
// (extract() then settles them into one). Throws ej::Error naming the metric, the source and
// what was expected when the text holds none or is malformed.
using ReadFunction = std::vector<ExtractedValue> (*)(const MetricSpec& spec, std::string_view text);
// A reader that goes through an output piece by piece, in bounded memory whatever its size: fed
// whole lines as they come (live while a benchmark runs, or a file read in pieces), then asked
// for what it read.
class LineScanner {
public:
  virtual ~LineScanner() = default;
  // Whole lines: every piece ends at a '\n', except the output's last and a cut overlong line.
  virtual void read(std::string_view lines) = 0;
  // The values read, as compactly as the journal keeps them. Throws ej::Error naming the metric
  // when there are none (output, its last lines are enough, is shown in that message) or more
  // than max_values_per_repeat().
  virtual ValueList finish_list(const TextSource& output) = 0;
  std::vector<ExtractedValue> finish(const TextSource& output) { return finish_list(output).expand(); }
};
using ScannerFunction = std::unique_ptr<LineScanner> (*)(const MetricSpec& spec);
// Throws ej::UsageError when spec.arg is not what the reader reads.
using CheckFunction = void (*)(const MetricSpec& spec);
// The unit the format or the key says when the output does not ("" when unknown).
using UnitFunction = std::string (*)(const MetricSpec& spec);

struct Reader {
  ExtractorKind kind;       // its name, the KIND of --metric NAME=KIND[:ARG], is core's to_string
  std::string_view syntax;  // "gbench[:BENCH][#FIELD]"
  std::string_view help;    // what it reads, one sentence
  std::string_view example; // a --metric option as docs/benchmarks.md shows it
  ReadFunction read;        // the whole text at once; nullptr for a reader that scans
  CheckFunction check = nullptr;
  UnitFunction source_unit = nullptr;
  ScannerFunction scanner = nullptr; // piece by piece, for outputs of any size; read_with runs it
};

// Every reader, in the order help and docs/benchmarks.md list them.
std::span<const Reader> readers();
const Reader& reader_for(ExtractorKind kind);
const Reader* find_reader(std::string_view name);
// "regex, kv, json, ..." for messages and help.
std::string reader_names();

// The entry points (grammar of each ARG in metric_spec.h).
std::vector<ExtractedValue> read_json(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_nvbench(const MetricSpec& spec, std::string_view text);
// NVBench's markdown tables, which read_nvbench hands on when it sees them.
std::vector<ExtractedValue> read_nvbench_markdown(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_gbench(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_hyperfine(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_nccl(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_gbench_console(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_sglang_one_batch(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_pytest(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_catch2(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_criterion(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_torch(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> read_perf_stat(const MetricSpec& spec, std::string_view text);

std::unique_ptr<LineScanner> scan_regex(const MetricSpec& spec);
std::unique_ptr<LineScanner> scan_kv(const MetricSpec& spec);
// Reads source with a scanner, piece by piece.
std::vector<ExtractedValue> read_with(LineScanner& scanner, const TextSource& source);

void check_regex(const MetricSpec& spec);
void check_kv(const MetricSpec& spec);
void check_json(const MetricSpec& spec);
void check_gbench(const MetricSpec& spec);
void check_nccl(const MetricSpec& spec);
void check_gbench_console(const MetricSpec& spec);
void check_sglang_one_batch(const MetricSpec& spec);
void check_pytest(const MetricSpec& spec);
void check_catch2(const MetricSpec& spec);
void check_criterion(const MetricSpec& spec);

std::string unit_of_kv(const MetricSpec& spec);
std::string unit_of_json(const MetricSpec& spec);
std::string unit_of_nvbench(const MetricSpec& spec);
std::string unit_of_gbench(const MetricSpec& spec);
std::string unit_of_nccl(const MetricSpec& spec);
std::string unit_of_sglang_one_batch(const MetricSpec& spec);
std::string unit_of_pytest(const MetricSpec& spec);
std::string unit_of_criterion(const MetricSpec& spec);

} // namespace ej::measure
