#include "evidence/target_result.h"

#include "evidence/wording.h"
#include "measure/statistics.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cmath>

namespace ej::evidence {

namespace {

std::string where_of(const SeriesSummary& series)
{
  if (series.params.empty()) {
    return series.key;
  }
  return series.key.empty() ? series.params : series.params + " " + series.key;
}

// How far a value is from meeting the target, in the target's direction: larger is worse.
double shortfall(const core::Target& target, double value)
{
  switch (target.comparator) {
  case core::Comparator::Less:
  case core::Comparator::LessEqual:
    return value - target.value;
  case core::Comparator::Greater:
  case core::Comparator::GreaterEqual:
    break;
  }
  return target.value - value;
}

// The headline restricted to the axes the series has, or empty when it names none of them.
core::ParamValues applicable(const core::ParamValues& headline, const std::string& params)
{
  core::ParamValues out;
  const auto values = parse_params_label(params);
  for (const auto& [axis, value] : headline) {
    if (values.count(axis) > 0) {
      out.emplace(axis, value);
    }
  }
  return out;
}

} // namespace

std::string bound_text(const core::Target& target)
{
  return fmt::format("{} {}", core::to_string(target.comparator), target.value);
}

TargetResult unmeasured_target(const core::Target& target)
{
  TargetResult result;
  result.target = target;
  return result;
}

TargetResult evaluate_target(const core::Target& target, const RunSet& set, const core::ParamValues& headline)
{
  TargetResult result = unmeasured_target(target);
  std::vector<const SeriesSummary*> series;
  for (const auto& s : set.series) {
    if (s.metric == target.metric && !s.values.empty()) {
      series.push_back(&s);
    }
  }
  if (series.empty()) {
    return result;
  }
  // At the headline combination, when the runs measured it.
  std::vector<const SeriesSummary*> at_headline;
  for (const auto* s : series) {
    const auto on_axes = applicable(headline, s->params);
    if (!on_axes.empty() && matches_selector(s->params, on_axes)) {
      at_headline.push_back(s);
    }
  }
  if (!at_headline.empty()) {
    series = at_headline;
    result.at_headline = true;
  }
  result.bench = set.bench;
  result.unit = series.front()->unit;
  double worst = -INFINITY;
  for (const auto* s : series) {
    const double median = measure::median(s->values);
    ++result.judged;
    if (core::meets(target, median)) {
      result.met_at.push_back(where_of(*s));
    }
    if (!result.value || shortfall(target, median) > worst) {
      worst = shortfall(target, median);
      result.value = median;
      result.where = where_of(*s);
    }
  }
  result.state = result.met_at.size() == result.judged ? TargetState::Met : TargetState::NotMet;
  return result;
}

std::string TargetResult::text() const
{
  const auto bound = bound_text(target);
  if (state == TargetState::NotMeasured) {
    return fmt::format("{} {} not measured", target.metric, bound);
  }
  if (judged == 1 || at_headline) {
    return fmt::format("{} {} {} {}", target.metric, value_text(*value, unit),
                       state == TargetState::Met ? "meets" : "misses", bound);
  }
  if (state == TargetState::Met) {
    return fmt::format("{} meets {} at every combination", target.metric, bound);
  }
  if (met_at.empty()) {
    return fmt::format("{} misses {} at every combination (worst {})", target.metric, bound,
                       value_text(*value, unit));
  }
  return fmt::format("{} meets {} only at {}", target.metric, bound, util::join(met_at, "; "));
}

std::string TargetResult::cell() const
{
  switch (state) {
  case TargetState::NotMeasured:
    return "—";
  case TargetState::Met:
    return "yes";
  case TargetState::NotMet:
    break;
  }
  return met_at.empty() ? "no" : "at " + util::join(met_at, "; ");
}

} // namespace ej::evidence
