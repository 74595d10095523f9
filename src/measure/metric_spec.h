#pragma once

// What a benchmark measures and how ej reads it from the program's output.
//
// Option grammar (the contract of `ej bench add`):
//   --metric NAME=KIND[:ARG]     KIND: a reader of readers.h (regex kv json nvbench gbench ...)
//   --unit NAME=UNIT             e.g. --unit tok_s=tok/s; converts (units.h), or labels values
//                                whose unit the output does not say
//   --better NAME=higher|lower   default: inferred from the unit or name (direction.h), and from the
//                                unit the values show at run time when nothing else said
//
// NAME: a letter or '_' then letters, digits, '_', '-', '.'.
// ARG, read left to right:
//   [stdout:|stderr:] BODY [@FILE]
//   - `stderr:` reads the program's stderr instead of stdout (`stdout:` is the default, written
//     out only when BODY itself starts with one of these prefixes).
//   - `@FILE` at the end reads FILE (relative to the benchmark's working directory) after each
//     repeat instead of a stream: `nvbench:@out.json` with `--json out.json`, `gbench:@out.json`
//     with `--benchmark_out=out.json`, `hyperfine:@h.json` with `--export-json h.json`.
//     FILE may be quoted, "..." or '...', and then hold anything but that quote (spaces, '@'):
//     `criterion:#mean@"target/criterion/fib 20/new/estimates.json"`. Unquoted, the last '@'
//     starts FILE only when what follows looks like a path (no blanks and none of
//     ()[]{}+|^$\"'@, nor * and ? after a regex); write `\@` for an '@' that must stay in BODY.
//     One that would but for its blanks is refused where the user types it (parse_metric_option).
//   The ':' may be left out before an ARG starting with '@' or '#': `hyperfine@h.json`, `pytest#median`.
//     A glob (`@"results/vllm-*.json"`, or unquoted except after a regex) reads the newest
//     match written during the repeat. What ej does with result files: result_files.h.
//   BODY per KIND:
//   - regex: an RE2 pattern with exactly one capture group, applied to the whole text in
//     multi-line mode (^ and $ match at line ends); every match is a sample. The capture may
//     hold digit-group separators (1,036,537 or 1_036_537); a unit printed right after it
//     ("14.5 ms", inside or outside the match) is the value's unit.
//     `verify_ms=regex:verify: ([0-9.]+) ms`
//   - kv: a key matched literally (case, blanks and punctuation as printed), then '=' or ':' and a
//     number (thousands separators allowed: 63,845). The key must start its line, or follow
//     something other than a plain word: "a=1 rate=2" and "[INFO] rate=2" match `rate`, but
//     "Peak output rate: 5" does not match `output rate`. A unit written after the number
//     ("12.5 ms", "3.2us") is the value's unit, else one written in the key ("(tok/s)",
//     "latency_us"). Every match is a sample. `KEY;per=KEY2` keys each value `KEY2=TEXT` by the
//     last KEY2 line printed before it (SGLang's "Traffic request rate: 4.0" opens each block).
//     `tok_s=kv:Output token throughput (tok/s)` reads `Output token throughput (tok/s): 92.6`.
//   - json: a JSON Pointer (`/results/0/mean`) or a dotted path (`results.0.mean`), empty for the
//     whole document (JSONPath `$.x` is refused); a number (or numeric string) or an array of
//     them gives the samples. The unit is a sibling "unit" string ({"estimate": 5, "unit":
//     "ns"}), else one written in the last key (`median_ttft_ms`). `PATH;per=FIELD` reads every
//     record of JSON Lines, each keyed `FIELD=VALUE` (`request_rate=4.0`, `request_rate=Infinity`).
//   - nvbench: `BENCH[/TAG]`, BENCH empty for every benchmark, TAG a summary tag, default
//     `nv/cold/time/gpu/mean` (seconds; its relative stdev comes along). One value per state,
//     keyed `BENCH[Device=N,Axis=value,...]` as nvbench names the state (pow2 axes as 2^N), on
//     one GPU or several; skipped states come back marked skipped, with their skip_reason. A
//     "percentage" summary (utilization, a relative stdev) is stored in % (0.58 is 58%).
//     The markdown nvbench prints (stdout, `--md FILE`; told by its "# Benchmark Results") is read
//     too, keyed the same: TAG `nv/cold/time/gpu/mean` is the "GPU Time" column (its "Noise" the
//     relative stdev), `nv/cold/time/cpu/mean` "CPU Time", `nv/batch/time/gpu/mean` "Batch GPU",
//     `nv/cold/bw/global/bytes_per_second` "GlobalMem BW", `nv/cold/bw/global/utilization`
//     "BWUtil", `nv/cold/bw/item_rate` "Elem/s", any other TAG the column of that header. Values
//     are stored as --json stores them (s, B/s, items/s, %), converted from the unit printed; other
//     columns in the unit printed. The log's "Run:" lines say which columns are axes (else those
//     before "Samples") and which states were skipped ("Skip: reason"; the tables leave them out);
//     the "### [N]" heading over each table names the device.
//   - gbench: `BENCH[#FIELD]`, BENCH empty for every row, else a row's name or run_name (so
//     `BM_Sum` also selects `BM_Sum_mean`, flagged aggregate) or the family it names (`BM_Sum`
//     selects `BM_Sum/8` ... `BM_Sum/1024`, not `BM_Sum2/8`), FIELD default `real_time`
//     (`cpu_time` or a user counter otherwise). Times are converted to the metric's unit
//     (ns unless --unit says otherwise); a counter's unit is read from its name
//     (`bytes_per_second` is B/s); a `_cv` row ("aggregate_unit": "percentage") is in %.
//   - gbench-console: `BENCH[#cpu_time]`, the console table's Time (or CPU) column, keyed and
//     selected as gbench; BigO and RMS rows are left out.
//   - hyperfine: empty for every command, else a command string or a 0-based index; each
//     entry of `times` is a sample, in seconds unless --unit says ns, us or ms.
//   - nccl: `[out-of-place/|in-place/]FIELD`, FIELD time (us), algbw, busbw (default, GB/s) or
//     avg_busbw (the "# Avg bus bandwidth" line). One value per row and place, keyed
//     `size=BYTES,out-of-place`, inside `TEST[...]` when the log names its test.
//   - sglang-one-batch: FIELD of the section after "Benchmark ..." (not the warmup):
//     prefill_|decode_|total_ + latency|throughput, default decode_throughput (the median).
//   - pytest: `[FULLNAME][#FIELD]` (fullname or name), FIELD a key of "stats", default `data`
//     (every round a sample); keyed by fullname.
//   - catch2: `[NAME][#STAT]`, STAT mean (default), low_mean, high_mean, std_dev, low_std_dev,
//     high_std_dev; keyed by the benchmark's name, in the unit printed. Catch2's `-r xml` report
//     (v2 and v3; text starting with '<') is read as XML: each <BenchmarkResults name=...>, STAT
//     the value, lowerBound or upperBound of <mean> or <standardDeviation>, in ns.
//   - criterion: `[ID][#STAT]` of estimates.json (no key) or cargo-criterion messages (keyed by
//     id); STAT mean (default), median, slope, typical, std_dev, median_abs_dev, or samples
//     (measured_values / iteration_count). sample.json ({"iters": [...], "times": [...]}, no key)
//     gives every sample, times[i] / iters[i] in ns, with no STAT or `#samples`.
//     change/estimates.json (mean and median only) gives the relative change in % (-0.25).
//   - torch: `[TITLE]`, torch.utils.benchmark Measurement printouts keyed by their title; without
//     their "<...Measurement object at ...>" line, a time line followed by its "N measurements,
//     ..." line is one, titled by the nearest less indented line above it (past its setup).
//   - perf-stat: `[EVENT]`, perf stat counters keyed by event as printed; `cycles` selects
//     `cycles:u` and `cpu_core/cycles/` too; `elapsed`, `user` and `sys` are the times (s),
//     `task-clock` is in ms, and counts have no unit (own_unit: not given the times'). Without a
//     "Performance counter stats for" block, `perf stat -x SEP` rows are read (value SEP unit SEP
//     event SEP ..., SEP one of , ; | or a tab); metric rows (no value) are left out, and
//     `<not counted>`/`<not supported>` counters come back skipped, noted so.
// JSON kinds skip log lines printed before the document (it starts on a line opening with '{'
// or '['; earlier JSON Lines records are skipped so, and the last is read); text after it is an error.
// Python's NaN, Infinity and -Infinity are read, and are an error only where a metric's value is one.

#include "core/metric_spec.h"
#include "measure/statistics.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// The plain data lives in core, where a stored definition is read into it once.
using core::DirectionChoice;
using core::ExtractorKind;
using core::MetricSpec;
using core::parse_better;
using core::parse_extractor_kind;
using core::to_json;
using core::to_string;

// Parses "NAME=KIND[:ARG]" and checks ARG (a regex must compile with one capture group...).
// Throws ej::UsageError saying what is wrong.
MetricSpec parse_metric_spec(std::string_view spec);
// An unquoted '@' followed by a path with blanks ("json:results@my run.json"): the grammar reads it
// as part of BODY, which is rarely what was meant. `file` is the text after the '@', `quoted` the
// spec with it quoted ('json:results@"my run.json"'); nullopt when the spec has no such '@' (an
// '@' followed by a blank, or by text no path would hold, stays in BODY silently). Throws as
// parse_metric_spec does.
struct FileWithBlanks {
  std::string file;
  std::string quoted;
};
std::optional<FileWithBlanks> find_file_with_blanks(std::string_view spec);

// parse_metric_spec for a spec typed by the user (bench add, bench test), `dir` the benchmark's
// working directory: an unquoted '@' then a path with blanks (find_file_with_blanks) reads that file
// when it exists there, and is refused otherwise with the quoting to use (ej::UsageError).
MetricSpec parse_metric_option(std::string_view text, const std::filesystem::path& dir);

// Checks a spec built by other means (from storage, after edits); throws ej::UsageError.
void validate_metric_spec(const MetricSpec& spec);
// Checks that spec.unit is one the values' known source unit converts to; throws ej::UsageError.
// Not part of validate_metric_spec, so that a definition stored by an older ej still reads.
void check_unit(const MetricSpec& spec);

// "NAME=UNIT" and "NAME=higher|lower" for a metric already in specs; throws ej::UsageError.
// The unit is stored in ej's spelling when ej knows it ("usec" becomes "us").
void apply_unit_option(std::vector<MetricSpec>& specs, std::string_view option);
void apply_better_option(std::vector<MetricSpec>& specs, std::string_view option);

// The unit values come in when the output does not say: the format's ("ns" for gbench times,
// "s" for hyperfine and nvbench times, "B/s" and "items/s" for nvbench rates) or the key's
// (kv `Median TTFT (ms)`, json `p99_itl_ms`, gbench `#bytes_per_second`); "" when unknown.
std::string source_unit(const MetricSpec& spec);
// The unit extracted values carry: the spec's unit, else source_unit, else "" (the output's
// own, e.g. what kv reads after the number).
std::string effective_unit(const MetricSpec& spec);

// "NAME=KIND[:ARG]" that parse_metric_spec reads back to the same spec (unit and better
// are separate options and are not part of it).
std::string to_spec_string(const MetricSpec& spec);

// A spec read from storage (core::metric_spec_from_json) made ready for use: checked as its reader
// needs (a regex that compiles), and an unrecorded direction choice settled (direction_given).
// Throws ej::Error, not a usage error: the journal holds it.
MetricSpec checked_stored_spec(MetricSpec spec);

} // namespace ej::measure
