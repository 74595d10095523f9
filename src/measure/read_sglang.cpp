// sglang-one-batch: SGLang bench_one_batch's console (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <re2/re2.h>

#include <array>

namespace ej::measure {

namespace {

// FIELD, the line that holds it, and which of its numbers ("latency" first, "throughput" second).
struct OneBatchField {
  std::string_view name;
  std::string_view line_start;
  int which;
};

constexpr std::array<OneBatchField, 6> k_fields{{
    {"prefill_latency", "Prefill.", 0},
    {"prefill_throughput", "Prefill.", 1},
    {"decode_latency", "Decode.  median", 0},
    {"decode_throughput", "Decode.  median", 1},
    {"total_latency", "Total.", 0},
    {"total_throughput", "Total.", 1},
}};

const OneBatchField* find_field(std::string_view name)
{
  for (const auto& field : k_fields) {
    if (field.name == (name.empty() ? std::string_view("decode_throughput") : name)) {
      return &field;
    }
  }
  return nullptr;
}

} // namespace

void check_sglang_one_batch(const MetricSpec& spec)
{
  if (find_field(spec.arg) == nullptr) {
    throw UsageError(
        "metric '{}': sglang-one-batch has no field '{}': use prefill_latency, prefill_throughput, "
        "decode_latency, decode_throughput, total_latency or total_throughput",
        spec.name, spec.arg);
  }
}

std::string unit_of_sglang_one_batch(const MetricSpec& spec)
{
  const auto* field = find_field(spec.arg);
  return field != nullptr && field->which == 1 ? "tok/s" : "s";
}

std::vector<ExtractedValue> read_sglang_one_batch(const MetricSpec& spec, std::string_view text)
{
  const auto* field = find_field(spec.arg);
  static const re2::RE2 k_numbers(
      R"(latency:\s*([0-9.eE+-]+)\s*(\S+),.*throughput:\s*([0-9.eE+-]+)\s*(\S+))");
  std::vector<ExtractedValue> values;
  bool in_benchmark = false; // the warmup prints the same lines first
  for (const auto line : detail::text_lines(text)) {
    const auto trimmed = util::trim(line);
    if (trimmed.starts_with("Warmup ...")) {
      in_benchmark = false;
    } else if (trimmed.starts_with("Benchmark ...")) {
      in_benchmark = true;
    }
    if (!in_benchmark) {
      continue;
    }
    if (!trimmed.starts_with(field->line_start)) {
      continue;
    }
    std::array<std::string, 4> parts;
    if (!re2::RE2::PartialMatch(std::string(trimmed), k_numbers, &parts[0], &parts[1], &parts[2],
                                &parts[3])) {
      throw Error("metric '{}': the bench_one_batch line '{}' in {} does not read 'latency: N s, ... "
                  "throughput: N token/s'",
                  spec.name, util::first_line(std::string(trimmed), 160), detail::source_name(spec));
    }
    const auto at = static_cast<std::size_t>(field->which * 2);
    values.push_back(detail::make_value("", detail::parse_number(spec, parts[at]), parts[at + 1]));
  }
  if (values.empty()) {
    throw Error("metric '{}': {} has no '{}' line after 'Benchmark ...' (SGLang bench_one_batch prints its "
                "warmup, then the benchmark); its last lines were:\n{}",
                spec.name, detail::source_name(spec), field->line_start, detail::output_tail(text));
  }
  return values;
}

} // namespace ej::measure
