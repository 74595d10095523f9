#include "measure/extract.h"

#include "measure/extract_common.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"

namespace ej::measure {

namespace {

std::vector<ExtractedValue> extract_values(const MetricSpec& spec, const ExtractInput& input)
{
  return reader_for(spec.kind).read(spec, detail::source_text(spec, input));
}

std::string where_of(const ExtractedValue& value)
{
  return value.key.empty() ? std::string() : " (at '" + value.key + "')";
}

} // namespace

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
    if (const auto unit = unit_of(value); unit && !value.skipped && !value.ratio) {
      target_text = unit->symbol;
    }
  }
  for (const auto& value : values) {
    if (target_text.empty() && !value.ratio) {
      target_text = value.unit; // a label ej does not know, kept as written
    }
  }
  const auto target = parse_unit(target_text);
  const std::string label = target ? target->symbol : target_text;
  for (auto& value : values) {
    if (value.ratio) {
      continue;
    }
    const auto from = unit_of(value);
    if (!value.skipped && from && target) {
      if (!convertible(*from, *target)) {
        if (spec.unit.empty()) {
          throw Error(
              "metric '{}': values come in '{}' ({}) and in '{}' ({}){}, which do not convert into each "
              "other: narrow the extractor to one quantity",
              spec.name, target->symbol, describe_dimension(*target), from->symbol, describe_dimension(*from),
              where_of(value));
        }
        throw Error(
            "metric '{}': a value in '{}' ({}){} cannot be given in '{}' ({}): change --unit {}=UNIT to "
            "a unit of {}, or drop it",
            spec.name, from->symbol, describe_dimension(*from), where_of(value), target->symbol,
            describe_dimension(*target), spec.name, describe_dimension(*from));
      }
      value.value = convert(value.value, *from, *target);
    } else if (!value.skipped && from && !target) {
      throw Error("metric '{}': a value in '{}'{} cannot be converted to '{}', a unit ej does not know: use "
                  "one it converts to (ns, us, ms, s, B, MB, GiB, GB/s, tok/s, req/s, %, ...) or drop --unit",
                  spec.name, from->symbol, where_of(value), target_text);
    }
    value.unit = label;
  }
}

} // namespace ej::measure
