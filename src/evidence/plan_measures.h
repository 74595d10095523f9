#pragma once

#include "core/bench_definition.h"
#include "core/records.h"
#include "core/target.h"
#include "store/database.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

// What a plan measures, resolved against the benchmarks it names: the metrics its documents and
// verdicts are about, each with its unit, direction and headline combination, and its targets.
namespace ej::evidence {

struct Measure {
  std::string bench;
  std::string metric; // never empty: the benchmark's primary metric when the plan named none
  std::string unit;
  bool higher_is_better = false;
  core::ParamValues headline; // the measure's own combination, else the plan's on the axes its benchmark has
  bool declared = true; // named by the plan; false: a plan of one benchmark, found from its baseline or runs
};

struct PlanMeasures {
  std::vector<Measure> measures; // the headline measure first; empty for a plan with no benchmark yet
  std::vector<core::Target> targets;
  core::ParamValues plan_headline;
  std::map<std::string, std::vector<std::string>> axes; // of every benchmark, by name

  const Measure* headline_measure() const { return measures.empty() ? nullptr : &measures.front(); }
  // The measure of `bench` and `metric`; nullptr when the plan has none.
  const Measure* find(const std::string& bench, const std::string& metric) const;
  // The measures of one benchmark, in the plan's order.
  std::vector<const Measure*> of_bench(const std::string& bench) const;
  // The combination a series of `bench` and `metric` is summed up at: its measure's, else the plan's
  // restricted to the axes the benchmark has; empty when none applies.
  core::ParamValues headline_for(const std::string& bench, const std::string& metric) const;
};

// The plan's measures as declared (`ej plan new --measure`), or for a plan that declares none the
// primary metric of its one benchmark: the one its baseline was last pinned for, else the one its
// attempts ran most (as plan documents always chose it).
PlanMeasures resolve_measures(store::Database& db, const core::Plan& plan);

// The unit and direction of a benchmark's metric as its current revision defines them; a metric
// whose unit only the output says (a regex on "174.85 tok/s") takes `seen_unit`, as the runs stored
// it, and the direction with it unless --better gave one.
struct MetricInfo {
  std::string unit;
  bool higher_is_better = false;
  bool known = false; // the benchmark defines the metric (wall_s always)
};
MetricInfo metric_info(const core::BenchDefinition& definition, const std::string& metric,
                       std::string_view seen_unit = "");

// The benchmark names whose current revision has `metric`, sorted.
std::vector<std::string> benchmarks_with_metric(store::Database& db, const std::string& metric);

// Checks a measure a plan is given: its benchmark is registered, has the metric, and its headline
// names axes and values the benchmark has. Returns it with the metric filled in (the benchmark's
// primary when it named none). Throws ej::UsageError saying what to write instead.
core::PlanMeasure checked_measure(store::Database& db, core::PlanMeasure measure);
// Checks a plan's --headline against its measures' benchmarks: some benchmark of theirs has each axis.
void check_headline(store::Database& db, const core::ParamValues& headline,
                    const std::vector<core::PlanMeasure>& measures);
// Gives a target the benchmark that measures its metric: the one it names (which must have it),
// else the one of the plan's measures' benchmarks that has it, else the one registered benchmark
// that has it. Several: ej::UsageError naming them. None: the target stays unbound, applying to
// whichever benchmark later measures it.
core::Target bind_target(store::Database& db, core::Target target,
                         const std::vector<core::PlanMeasure>& measures);

} // namespace ej::evidence
