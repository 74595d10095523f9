#include "core/plan_measure.h"

#include "core/slug.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::core {

namespace {

bool is_metric_char(char c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

} // namespace

ParamValues parse_combination(std::string_view text, std::string_view what)
{
  ParamValues values;
  if (util::trim(text).empty()) {
    return values;
  }
  for (const auto& pair : util::split(std::string(text), ',')) {
    const auto equals = pair.find('=');
    const std::string_view whole = pair;
    const auto axis =
        std::string(util::trim(whole.substr(0, equals == std::string::npos ? pair.size() : equals)));
    const auto value =
        equals == std::string::npos ? std::string() : std::string(util::trim(whole.substr(equals + 1)));
    if (axis.empty() || value.empty()) {
      throw UsageError("{} '{}': '{}' is not AXIS=VALUE; write e.g. concurrency=1", what, text, pair);
    }
    if (!values.emplace(axis, value).second) {
      throw UsageError("{} '{}' names axis {} twice", what, text, axis);
    }
  }
  return values;
}

PlanMeasure parse_plan_measure(std::string_view text)
{
  const auto fail = [&](std::string_view why) {
    throw UsageError("invalid measure '{}': {}; write BENCH[:METRIC][@AXIS=VALUE,...], e.g. "
                     "'serve:tok_s@concurrency=1'",
                     text, why);
  };
  PlanMeasure measure;
  auto rest = std::string(util::trim(text));
  if (rest.empty()) {
    fail("it is empty");
  }
  if (const auto at = rest.find('@'); at != std::string::npos) {
    measure.headline = parse_combination(rest.substr(at + 1), "--measure");
    if (measure.headline.empty()) {
      fail("the combination after '@' is empty");
    }
    rest = rest.substr(0, at);
  }
  const auto colon = rest.find(':');
  measure.bench = rest.substr(0, colon);
  if (measure.bench.empty()) {
    fail("the benchmark is missing");
  }
  validate_slug(measure.bench, "benchmark name");
  if (colon != std::string::npos) {
    measure.metric = rest.substr(colon + 1);
    if (measure.metric.empty()) {
      fail("the metric after ':' is empty");
    }
    for (const char c : measure.metric) {
      if (!is_metric_char(c)) {
        fail("a metric name holds only letters, digits, '_' and '.'");
      }
    }
  }
  return measure;
}

std::string to_string(const PlanMeasure& measure)
{
  auto text = measure.bench;
  if (!measure.metric.empty()) {
    text += ":" + measure.metric;
  }
  if (!measure.headline.empty()) {
    text += "@" + describe(measure.headline);
  }
  return text;
}

} // namespace ej::core
