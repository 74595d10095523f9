#include "evidence/plan_measures.h"

#include "evidence/metric_rules.h"
#include "measure/direction.h"
#include "measure/metric_spec.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

// The plan's benchmark when it declares no measure: the one its baseline was last pinned for, else
// the one its attempts ran most.
std::string implicit_bench(store::Database& db, const std::string& plan)
{
  const auto history = store::baseline_history(db, plan);
  if (!history.empty()) {
    return history.back().bench;
  }
  return store::most_run_bench(db, plan);
}

core::ParamValues on_axes(const core::ParamValues& values, const std::vector<std::string>& axes)
{
  core::ParamValues out;
  for (const auto& [axis, value] : values) {
    if (std::find(axes.begin(), axes.end(), axis) != axes.end()) {
      out.emplace(axis, value);
    }
  }
  return out;
}

} // namespace

MetricInfo metric_info(const core::BenchDefinition& definition, const std::string& metric,
                       std::string_view seen_unit)
{
  MetricInfo info;
  if (metric == "wall_s") {
    return {"s", false, true};
  }
  for (const auto& spec : measure::metric_specs(definition)) {
    if (spec.name == metric) {
      info.unit = measure::effective_unit(spec);
      if (info.unit.empty()) {
        info.unit = seen_unit;
      }
      info.higher_is_better = measure::judged_better(spec, info.unit) == measure::Direction::HigherIsBetter;
      info.known = true;
    }
  }
  return info;
}

std::vector<std::string> benchmarks_with_metric(store::Database& db, const std::string& metric)
{
  std::vector<std::string> out;
  for (const auto& bench : store::list_benchmarks(db)) {
    if (metric_info(core::readable_bench_definition(bench.definition), metric).known) {
      out.push_back(bench.name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

const Measure* PlanMeasures::find(const std::string& bench, const std::string& metric) const
{
  for (const auto& m : measures) {
    if (m.bench == bench && m.metric == metric) {
      return &m;
    }
  }
  return nullptr;
}

std::vector<const Measure*> PlanMeasures::of_bench(const std::string& bench) const
{
  std::vector<const Measure*> out;
  for (const auto& m : measures) {
    if (m.bench == bench) {
      out.push_back(&m);
    }
  }
  return out;
}

core::ParamValues PlanMeasures::headline_for(const std::string& bench, const std::string& metric) const
{
  if (const auto* m = find(bench, metric)) {
    return m->headline;
  }
  const auto it = axes.find(bench);
  return it == axes.end() ? core::ParamValues{} : on_axes(plan_headline, it->second);
}

core::PlanMeasure checked_measure(store::Database& db, core::PlanMeasure measure)
{
  const auto bench = store::find_benchmark(db, measure.bench);
  if (!bench) {
    throw UsageError(
        "--measure {}: no benchmark named '{}'; register it first (ej bench add) or see 'ej bench list'",
        core::to_string(measure), measure.bench);
  }
  const auto definition = core::readable_bench_definition(bench->definition);
  if (measure.metric.empty()) {
    measure.metric = definition.primary;
  }
  if (measure.metric.empty()) {
    measure.metric = "wall_s";
  }
  if (!metric_info(definition, measure.metric).known) {
    std::vector<std::string> names;
    for (const auto& spec : measure::metric_specs(definition)) {
      names.push_back(spec.name);
    }
    names.push_back("wall_s");
    throw UsageError("--measure {}: benchmark {} has no metric '{}'; its metrics are {}",
                     core::to_string(measure), measure.bench, measure.metric, util::join(names, ", "));
  }
  for (const auto& [axis, value] : measure.headline) {
    const auto found = std::find_if(definition.params.begin(), definition.params.end(),
                                    [&axis = axis](const auto& a) { return a.name == axis; });
    if (found == definition.params.end()) {
      throw UsageError("--measure {}: benchmark {} has no axis '{}'{}", core::to_string(measure),
                       measure.bench, axis, definition.params.empty() ? " (it has no parameters)" : "");
    }
    if (std::find(found->values.begin(), found->values.end(), value) == found->values.end()) {
      throw UsageError("--measure {}: axis {} of benchmark {} has no value '{}'; its values are {}",
                       core::to_string(measure), axis, measure.bench, value, util::join(found->values, ", "));
    }
  }
  return measure;
}

void check_headline(store::Database& db, const core::ParamValues& headline,
                    const std::vector<core::PlanMeasure>& measures)
{
  if (headline.empty() || measures.empty()) {
    return;
  }
  for (const auto& [axis, value] : headline) {
    bool found = false;
    for (const auto& m : measures) {
      const auto bench = store::find_benchmark(db, m.bench);
      if (!bench) {
        continue;
      }
      for (const auto& a : core::readable_bench_definition(bench->definition).params) {
        found = found || a.name == axis;
      }
    }
    if (!found) {
      throw UsageError("--headline {}={}: no benchmark the plan measures has an axis '{}'", axis, value,
                       axis);
    }
  }
}

core::Target bind_target(store::Database& db, core::Target target,
                         const std::vector<core::PlanMeasure>& measures)
{
  const auto text = core::to_string(target);
  if (!target.bench.empty()) {
    const auto bench = store::find_benchmark(db, target.bench);
    if (!bench) {
      throw UsageError("--target '{}': no benchmark named '{}'; see 'ej bench list'", core::qualified(target),
                       target.bench);
    }
    if (!metric_info(core::readable_bench_definition(bench->definition), target.metric).known) {
      throw UsageError("--target '{}': benchmark {} has no metric '{}'; see 'ej bench show {}'",
                       core::qualified(target), target.bench, target.metric, target.bench);
    }
    return target;
  }
  const auto all = benchmarks_with_metric(db, target.metric);
  std::vector<std::string> measured; // of the plan's measures' benchmarks, in order
  for (const auto& m : measures) {
    if (std::find(all.begin(), all.end(), m.bench) != all.end() &&
        std::find(measured.begin(), measured.end(), m.bench) == measured.end()) {
      measured.push_back(m.bench);
    }
  }
  const auto& candidates = measured.empty() ? all : measured;
  if (candidates.size() > 1) {
    std::vector<std::string> choices;
    for (const auto& bench : candidates) {
      choices.push_back(fmt::format("'{}:{}'", bench, text));
    }
    throw UsageError("--target '{}': benchmarks {} all measure {}; name one: --target {}", text,
                     util::join(candidates, ", "), target.metric, util::join(choices, " or "));
  }
  if (candidates.size() == 1) {
    target.bench = candidates.front();
  }
  return target;
}

PlanMeasures resolve_measures(store::Database& db, const core::Plan& plan)
{
  PlanMeasures out;
  out.targets = plan.targets;
  out.plan_headline = plan.headline;
  std::map<std::string, core::BenchDefinition> definitions;
  for (const auto& bench : store::list_benchmarks(db)) {
    auto definition = core::readable_bench_definition(bench.definition);
    auto& axes = out.axes[bench.name];
    for (const auto& axis : definition.params) {
      axes.push_back(axis.name);
    }
    definitions.emplace(bench.name, std::move(definition));
  }
  auto declared = plan.measures;
  bool implicit = false;
  if (declared.empty()) {
    const auto bench = implicit_bench(db, plan.slug);
    if (bench.empty()) {
      return out;
    }
    declared.push_back({bench, "", {}});
    implicit = true;
  }
  for (const auto& d : declared) {
    Measure m;
    m.bench = d.bench;
    m.declared = !implicit;
    const auto definition = definitions.find(d.bench);
    m.metric = d.metric;
    if (m.metric.empty() && definition != definitions.end()) {
      m.metric = definition->second.primary;
    }
    if (m.metric.empty()) {
      m.metric = "wall_s";
    }
    if (definition != definitions.end()) {
      auto info = metric_info(definition->second, m.metric);
      if (info.known && info.unit.empty()) {
        info = metric_info(definition->second, m.metric,
                           store::newest_sample_unit(db, d.bench, m.metric).value_or(""));
      }
      m.unit = info.unit;
      m.higher_is_better = info.higher_is_better;
    } else if (m.metric == "wall_s") {
      m.unit = "s";
    }
    m.headline = d.headline.empty() ? on_axes(plan.headline, out.axes[d.bench]) : d.headline;
    out.measures.push_back(std::move(m));
  }
  return out;
}

} // namespace ej::evidence
