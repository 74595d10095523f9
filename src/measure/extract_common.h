#pragma once

// Helpers shared by the extractors (not part of the module's interface).

#include "measure/extract.h"
#include "measure/value_list.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure::detail {

// A value with the given fields and the others at their defaults (designated initializers
// would warn about the fields left out).
ExtractedValue make_value(std::string key, double value, std::string unit);

// The values a scanner kept, or the error that says the output held more than ej keeps.
ValueList within_limit(const MetricSpec& spec, ValueList values);

// What the spec reads: stdout, stderr, or its file (throws ej::Error when the file is absent).
TextSource source_of(const MetricSpec& spec, const ExtractInput& input);
// "stdout", "stderr" or "file 'out.json'", for messages.
std::string source_name(const MetricSpec& spec);

// The states read from nvbench's output (its JSON or its markdown), or the error that it holds none
// of benchmark `bench` ("": of any benchmark).
std::vector<ExtractedValue> some_nvbench_states(const MetricSpec& spec, const std::string& bench,
                                                std::vector<ExtractedValue> values);

// A finite number written as text (leading '+' and surrounding blanks allowed); throws ej::Error
// naming the metric and the text otherwise.
double parse_number(const MetricSpec& spec, std::string_view text);
// "1,036,537" and "1_036_537.5" without their separators (groups of three digits after the
// first, one separator throughout); any other text as it is.
std::string without_digit_groups(std::string_view text);
// Whether text is a finite number, without throwing.
std::optional<double> try_parse_number(std::string_view text);

// The last lines (up to max_lines) of a text, indented, for "matched nothing" errors.
std::string output_tail(std::string_view text, std::size_t max_lines = 10);
std::string source_tail(const TextSource& source, std::size_t max_lines = 10);

// "NAME#FIELD": the name, and the field after the last '#' (nullopt without one).
struct HashSplit {
  std::string_view name;
  std::optional<std::string_view> field;
};
HashSplit split_hash(std::string_view arg);

// "BODY;per=FIELD": the body, and the field that keys each value ("" without ";per=").
struct PerSplit {
  std::string_view body;
  std::string_view per;
};
PerSplit split_per(std::string_view arg);

bool is_blank(char c);
// The unit written after a number: glued ("3.2ms", "45%") or the next token ("12.5 ms"), unless
// that token starts another pair or a remark, or is a statistic's name ("min", "max").
std::string unit_after(std::string_view rest);

struct NumberAt {
  std::optional<double> value; // nullopt: not a finite number
  std::size_t length = 0;      // characters read (0 when nothing number-like)
};
// The number at the start of text, "63,845"-style groups allowed.
NumberAt number_at(std::string_view text);

// Whether a Google Benchmark row (JSON or console) is one `BENCH` selects: every row when BENCH
// is empty, the row of that name, the aggregates of that run ("BM_Sum" selects "BM_Sum_mean"),
// and the family BENCH names ("BM_Sum" and "BM_Sum/" select "BM_Sum/8" and its aggregates).
bool selects_gbench_row(std::string_view name, std::string_view run_name, std::string_view bench);

// The non-empty lines of text, split at '\n' and '\r'.
std::vector<std::string_view> text_lines(std::string_view text);

} // namespace ej::measure::detail
