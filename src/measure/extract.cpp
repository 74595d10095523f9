#include "measure/extract.h"

#include "measure/extract_common.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "measure/value_list.h"
#include "util/error.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace ej::measure {

namespace {

constexpr std::uint64_t k_default_whole_text_limit = std::uint64_t{256} << 20;

std::string describe_size(std::uint64_t bytes)
{
  if (bytes >= (std::uint64_t{1} << 30)) {
    return fmt::format("{:.1f} GiB",
                       static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30));
  }
  if (bytes >= (std::uint64_t{1} << 20)) {
    return fmt::format("{:.1f} MiB",
                       static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 20));
  }
  return fmt::format("{} bytes", bytes);
}

std::uint64_t parse_size(std::string_view text)
{
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (suffix.ends_with("iB")) {
    suffix.remove_suffix(2);
  } else if (suffix.ends_with('B') && suffix.size() == 2) {
    suffix.remove_suffix(1);
  }
  int shift = -1;
  if (suffix.empty()) {
    shift = 0;
  } else if (suffix.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    default:
      break;
    }
  }
  if (error != std::errc() || end == text.data() || shift < 0 || value == 0 ||
      value > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
    throw UsageError(
        "EJ_MAX_RESULT_SIZE='{}' is not a size: write bytes, or a number with K, M or G (e.g. 1G)", text);
  }
  return value << shift;
}

std::vector<ExtractedValue> extract_values(const MetricSpec& spec, const ExtractInput& input)
{
  const TextSource source = detail::source_of(spec, input);
  const auto& reader = reader_for(spec.kind);
  if (reader.scanner != nullptr && spec.file.empty() && input.scanned) {
    if (auto* scanner = input.scanned(spec)) {
      return scanner->finish(source); // read while the program ran
    }
  }
  if (!source.available()) {
    throw Error("metric '{}': {} cannot be read whole: {}", spec.name, detail::source_name(spec),
                source.why_unavailable());
  }
  if (reader.scanner != nullptr) {
    const auto scanner = reader.scanner(spec);
    return read_with(*scanner, source);
  }
  const auto limit = whole_text_limit();
  if (source.size() > limit) {
    throw Error(
        "metric '{}': {} is {}, more than the {} ej loads for the {} reader: write a smaller result, read it "
        "with a line-based reader (regex, kv), or raise the limit with EJ_MAX_RESULT_SIZE (e.g. 1G)",
        spec.name, detail::source_name(spec), describe_size(source.size()), describe_size(limit),
        to_string(reader.kind));
  }
  std::string storage;
  return reader.read(spec, source.whole(storage));
}

std::string where_of(const ExtractedValue& value)
{
  return value.key.empty() ? std::string() : " (at '" + value.key + "')";
}

} // namespace

std::uint64_t whole_text_limit()
{
  const char* text = std::getenv("EJ_MAX_RESULT_SIZE");
  return text == nullptr || *text == '\0' ? k_default_whole_text_limit : parse_size(text);
}

ValueList extract_list(const MetricSpec& spec, const ExtractInput& input)
{
  // A line-based reader reads straight into the compact list; the others are bounded by
  // whole_text_limit() and converted once read.
  ValueList values;
  const auto& reader = reader_for(spec.kind);
  if (reader.scanner != nullptr && spec.file.empty() && input.scanned) {
    if (auto* scanner = input.scanned(spec)) {
      values = scanner->finish_list(detail::source_of(spec, input));
      settle_units(spec, values);
      return values;
    }
  }
  if (reader.scanner != nullptr) {
    const TextSource source = detail::source_of(spec, input);
    if (!source.available()) {
      throw Error("metric '{}': {} cannot be read whole: {}", spec.name, detail::source_name(spec),
                  source.why_unavailable());
    }
    const auto scanner = reader.scanner(spec);
    source.for_each_chunk([&scanner](std::string_view lines) { scanner->read(lines); });
    values = scanner->finish_list(source);
  } else {
    ValueList kept(max_values_per_repeat());
    for (const auto& value : extract_values(spec, input)) {
      kept.add(value);
    }
    values = detail::within_limit(spec, std::move(kept));
  }
  settle_units(spec, values);
  return values;
}

std::vector<ExtractedValue> extract(const MetricSpec& spec, const ExtractInput& input)
{
  auto values = extract_values(spec, input);
  settle_units(spec, values);
  return values;
}

void settle_units(const MetricSpec& spec, std::vector<ExtractedValue>& values)
{
  const auto implied = parse_unit(source_unit(spec));
  // The unit a value came in: what the output said, else what the format or key says. Values
  // mostly share their unit text, so the last one read is kept.
  std::string last_text;
  std::optional<Unit> last_unit;
  const auto unit_of = [&](const ExtractedValue& value) {
    if (value.unit != last_text) {
      last_text = value.unit;
      last_unit = parse_unit(value.unit);
    }
    return last_unit ? last_unit : implied;
  };
  std::string target_text = spec.unit.empty() ? source_unit(spec) : spec.unit;
  for (const auto& value : values) {
    if (!target_text.empty()) {
      break;
    }
    if (const auto unit = unit_of(value); unit && !value.skipped && !value.own_unit) {
      target_text = unit->symbol;
    }
  }
  for (const auto& value : values) {
    if (target_text.empty() && !value.own_unit) {
      target_text = value.unit; // a label ej does not know, kept as written
    }
  }
  const auto target = parse_unit(target_text);
  const std::string label = target ? target->symbol : target_text;
  for (auto& value : values) {
    if (value.own_unit) {
      continue;
    }
    const auto from = unit_of(value);
    if (!value.skipped && from && target) {
      if (!convertible(*from, *target)) {
        if (spec.unit.empty()) {
          throw Error("metric '{}': values in {} come in '{}' ({}) and in '{}' ({}){}, which do not convert "
                      "into each "
                      "other: narrow the extractor to one quantity",
                      spec.name, detail::source_name(spec), target->symbol, describe_dimension(*target),
                      from->symbol, describe_dimension(*from), where_of(value));
        }
        throw Error("metric '{}': a value in '{}' ({}){} of {} cannot be given in '{}' ({}): change --unit "
                    "{}=UNIT to "
                    "a unit of {}, or drop it",
                    spec.name, from->symbol, describe_dimension(*from), where_of(value),
                    detail::source_name(spec), target->symbol, describe_dimension(*target), spec.name,
                    describe_dimension(*from));
      }
      value.value = convert(value.value, *from, *target);
    } else if (!value.skipped && from && !target) {
      throw Error(
          "metric '{}': a value in '{}'{} of {} cannot be converted to '{}', a unit ej does not know: "
          "use one it converts to (ns, us, ms, s, B, MB, GiB, GB/s, tok/s, req/s, %, ...) or drop --unit",
          spec.name, from->symbol, where_of(value), detail::source_name(spec), target_text);
    }
    value.unit = label;
  }
}

} // namespace ej::measure
