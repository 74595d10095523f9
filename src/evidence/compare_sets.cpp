#include "evidence/compare_sets.h"

#include "core/numbering.h"
#include "evidence/crossover.h"
#include "measure/units.h"
#include "run/env_diff.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

// A wall time this many times the CPU time says the benchmark mostly waited.
constexpr double k_wall_over_cpu = 3.0;

std::string join_where(const std::string& params, const std::string& key)
{
  if (params.empty()) {
    return key;
  }
  return key.empty() ? params : params + " " + key;
}

const nlohmann::json* environment_of(Reader& reader, const RunSet& set)
{
  for (const auto& run : set.runs) {
    if (const auto* environment = reader.environment(run.env_blob)) {
      return environment;
    }
  }
  return nullptr;
}

const std::string* first_env_blob(const RunSet& set)
{
  for (const auto& run : set.runs) {
    if (!run.env_blob.empty()) {
      return &run.env_blob;
    }
  }
  return nullptr;
}

// Runs whose repeats took far more wall time than CPU time mostly waited (sleep, I/O, a GPU the
// CPU does not spin on, or other load): said, since the wall time then measures the wait.
void warn_waiting(const RunSet& set, Reader& reader, std::vector<std::string>& warnings)
{
  for (const auto& run : set.runs) {
    if (run.status == core::RunStatus::Imported) {
      continue;
    }
    const auto times = store::run_times(reader.journal().db(), run.number);
    const double wall = times.wall_s;
    const double cpu = times.cpu_s;
    if (wall > 0 && wall > k_wall_over_cpu * cpu) {
      warnings.push_back(
          fmt::format("run {}: wall time is {} the CPU time ({:.3g} s vs {:.3g} s): the benchmark mostly "
                      "waited (sleep, I/O, "
                      "the GPU, or other load on the machine), which the wall time includes",
                      core::number_label(run.number),
                      cpu > 0 ? fmt::format("{:.3g}x", wall / cpu) : "far more than", wall, cpu));
    }
  }
}

// "to compare one value with another, name them: 'ej compare r1:variant=naive r2:variant=blocked'",
// from the first combination of each side and the axes whose values differ.
std::string explicit_hint(const RunSet& reference, const RunSet& candidate)
{
  const auto side = [](const RunSet& set, const core::ParamValues& values) {
    const auto& first = set.runs.front();
    const auto prefix = set.runs.size() == 1 || !first.attempt ? fmt::format("r{}", first.number)
                                                               : fmt::format("{}", *first.attempt);
    return values.empty() ? prefix : prefix + ":" + core::describe(values);
  };
  core::ParamValues a;
  core::ParamValues b;
  if (!reference.series.empty() && !candidate.series.empty()) {
    const auto ra = parse_params_label(reference.series.front().params);
    const auto cb = parse_params_label(candidate.series.front().params);
    for (const auto& [axis, value] : ra) {
      const auto other = cb.find(axis);
      if (other != cb.end() && other->second != value) {
        a[axis] = value;
        b[axis] = other->second;
      }
    }
  }
  if (a.empty()) {
    return "compare two combinations explicitly, e.g. 'ej compare r1:AXIS=V1 r2:AXIS=V2'";
  }
  return fmt::format("to compare one value with another, name them: 'ej compare {} {}'", side(reference, a),
                     side(candidate, b));
}

} // namespace

std::string SeriesComparison::where() const
{
  if (!reference_params.empty() || !candidate_params.empty()) {
    const auto sides = fmt::format("{} vs {}", reference_params.empty() ? "-" : reference_params,
                                   candidate_params.empty() ? "-" : candidate_params);
    return join_where(params.empty() ? sides : params + ", " + sides, key);
  }
  return join_where(params, key);
}

std::string SeriesComparison::label() const
{
  const auto at = where();
  return at.empty() ? metric : metric + " [" + at + "]";
}

void add_environment_changes(Reader& reader, const RunSet& reference, const RunSet& candidate,
                             ComparisonReport& report)
{
  const auto* blob_a = first_env_blob(reference);
  const auto* blob_b = first_env_blob(candidate);
  if (blob_a == nullptr || blob_b == nullptr || *blob_a == *blob_b) {
    return; // content-addressed: the same hash is the same environment
  }
  const auto* env_a = environment_of(reader, reference);
  const auto* env_b = environment_of(reader, candidate);
  if (env_a == nullptr || env_b == nullptr) {
    return;
  }
  const auto changes = run::diff_environments(*env_a, *env_b);
  report.env_changes = run::format_changes(changes);
  for (const auto& change : changes) {
    if (std::find(report.env_fields.begin(), report.env_fields.end(), change.what) ==
        report.env_fields.end()) {
      report.env_fields.push_back(change.what);
    }
  }
}

std::optional<ComparisonReport> try_compare(Reader& reader, const RunSet& reference, const RunSet& candidate,
                                            const CompareRequest& request, std::string& why_not)
{
  if (reference.bench != candidate.bench) {
    why_not =
        fmt::format("{} ran benchmark {} and {} ran {}: results of different benchmarks are not comparable",
                    reference.label, reference.bench, candidate.label, candidate.bench);
    return std::nullopt;
  }
  if (reference.runs.size() == 1 && candidate.runs.size() == 1 &&
      reference.runs.front().number == candidate.runs.front().number &&
      reference.selector == candidate.selector) {
    why_not =
        fmt::format("{} compared with itself says nothing; compare it with another run or attempt, or two "
                    "of its combinations (r{}:AXIS=V1 r{}:AXIS=V2)",
                    reference.label, reference.runs.front().number, reference.runs.front().number);
    return std::nullopt;
  }
  ComparisonReport report;
  if (reference.revision != candidate.revision &&
      reader.measures_alike(candidate.bench, reference.revision, candidate.revision)) {
    report.warnings.push_back(fmt::format(
        "revisions {} and {} of {} measure alike (they differ in how runs are judged): compared with revision "
        "{}'s rules",
        reference.revision, candidate.revision, candidate.bench, candidate.revision));
  } else if (reference.revision != candidate.revision) {
    if (!request.force) {
      why_not = fmt::format(
          "{} used revision {} of {} and {} used revision {}: the benchmark changed in between; "
          "compare anyway with 'ej compare --force'",
          reference.label, reference.revision, reference.bench, candidate.label, candidate.revision);
      return std::nullopt;
    }
    report.warnings.push_back(
        fmt::format("benchmark revisions differ ({} vs {}): compared because of --force", reference.revision,
                    candidate.revision));
  }
  for (const auto* set : {&reference, &candidate}) {
    report.warnings.insert(report.warnings.end(), set->warnings.begin(), set->warnings.end());
  }
  const auto& rules = reader.rules(candidate.bench, candidate.revision);
  // The axes a selector chose are not matched: r5:variant=naive against r5:variant=blocked pairs
  // size=1 with size=1.
  core::ParamValues chosen = reference.selector;
  chosen.insert(candidate.selector.begin(), candidate.selector.end());
  const auto combination = [&](const SeriesSummary& s) { return params_without(s.params, chosen); };

  std::vector<const SeriesSummary*> candidate_series;
  candidate_series.reserve(candidate.series.size());
  for (const auto& s : candidate.series) {
    if (request.metric.empty() || s.metric == request.metric) {
      candidate_series.push_back(&s);
    }
  }
  for (const auto* set : {&reference, &candidate}) {
    if (set->series.empty()) {
      why_not = fmt::format("{} has no samples to compare{}", set->label,
                            set->warnings.empty() ? "" : " (" + util::join(set->warnings, "; ") + ")");
      return std::nullopt;
    }
  }
  const bool reference_has_metric =
      request.metric.empty() || std::any_of(reference.series.begin(), reference.series.end(),
                                            [&](const auto& s) { return s.metric == request.metric; });
  if (candidate_series.empty() || !reference_has_metric) {
    why_not = fmt::format("no samples of metric '{}' in {}; see 'ej show run N' for the metrics",
                          request.metric, candidate_series.empty() ? candidate.label : reference.label);
    return std::nullopt;
  }
  // The primary metric first, then the others in the order the benchmark defines them.
  std::stable_sort(candidate_series.begin(), candidate_series.end(), [&](const auto* a, const auto* b) {
    return (a->metric == rules.primary) > (b->metric == rules.primary);
  });
  std::vector<bool> paired_reference(reference.series.size(), false);
  std::vector<std::string> only_candidate;
  for (const auto* c : candidate_series) {
    const auto where = combination(*c);
    // Without selectors the labels match as they are (a document compares 10,000 runs so).
    const auto r = std::find_if(reference.series.begin(), reference.series.end(), [&](const auto& s) {
      return s.metric == c->metric && s.key == c->key &&
             (chosen.empty() ? s.params == c->params : combination(s) == where);
    });
    if (r == reference.series.end()) {
      only_candidate.push_back(c->metric + (where.empty() ? "" : " [" + where + "]"));
      continue;
    }
    paired_reference[static_cast<std::size_t>(r - reference.series.begin())] = true;
    if (r->values.empty() || c->values.empty()) {
      report.warnings.push_back(fmt::format("{}{}: no samples on {} side", c->metric,
                                            where.empty() ? "" : " [" + where + "]",
                                            c->values.empty() ? "the candidate's" : "the reference's"));
      continue;
    }
    // Runs recorded in different units (ms and us, or a unit spelled another way) are compared
    // in the candidate's; units that measure different things are never compared.
    std::vector<double> converted;
    const std::vector<double>* reference_values = &r->values;
    if (r->unit != c->unit) {
      const auto from = measure::parse_unit(r->unit);
      const auto to = measure::parse_unit(c->unit);
      if (from && to && measure::convertible(*from, *to)) {
        converted.reserve(r->values.size());
        for (const double v : r->values) {
          converted.push_back(measure::convert(v, *from, *to));
        }
        reference_values = &converted;
        if (from->symbol != to->symbol) {
          report.warnings.push_back(fmt::format("{}{}: the reference's values were converted from {} to {}",
                                                c->metric, where.empty() ? "" : " [" + where + "]", r->unit,
                                                c->unit));
        }
      } else if (!r->unit.empty() && !c->unit.empty()) {
        report.warnings.push_back(
            fmt::format("{}{}: the reference is in {} and the candidate in {}, which do not "
                        "convert: not compared",
                        c->metric, where.empty() ? "" : " [" + where + "]", r->unit, c->unit));
        continue;
      }
    }
    measure::CompareOptions options;
    options.direction = rules.direction_of(c->metric, c->unit);
    options.min_effect_pct = rules.min_effect_pct;
    SeriesComparison s;
    s.metric = c->metric;
    s.params = where;
    if (!chosen.empty() && r->params != c->params) {
      s.reference_params = core::describe(reference.selector);
      s.candidate_params = core::describe(candidate.selector);
    }
    s.key = c->key;
    s.unit = c->unit;
    s.quantity = reader.quantity(c->metric, c->unit);
    s.comparison = measure::compare(*reference_values, c->values, options);
    report.series.push_back(std::move(s));
  }
  std::vector<std::string> only_reference;
  for (std::size_t i = 0; i < reference.series.size(); ++i) {
    const auto& r = reference.series[i];
    if ((request.metric.empty() || r.metric == request.metric) && !paired_reference[i]) {
      const auto where = combination(r);
      only_reference.push_back(r.metric + (where.empty() ? "" : " [" + where + "]"));
    }
  }
  if (report.series.empty()) {
    why_not =
        fmt::format("{} and {} have no combination of a metric with samples on both sides (only in {}: {}; "
                    "only in {}: {}); {}",
                    reference.label, candidate.label, reference.label,
                    only_reference.empty() ? "none" : util::join(only_reference, ", "), candidate.label,
                    only_candidate.empty() ? "none" : util::join(only_candidate, ", "),
                    explicit_hint(reference, candidate));
    return std::nullopt;
  }
  if (!only_candidate.empty()) {
    report.warnings.push_back(
        fmt::format("not in the reference, so not compared: {}", util::join(only_candidate, ", ")));
  }
  if (!only_reference.empty()) {
    report.warnings.push_back(
        fmt::format("not in the candidate, so not compared: {}", util::join(only_reference, ", ")));
  }
  if (request.read_repeats) {
    warn_waiting(reference, reader, report.warnings);
    warn_waiting(candidate, reader, report.warnings);
  }
  add_environment_changes(reader, reference, candidate, report);
  if (!report.env_changes.empty()) {
    report.warnings.push_back("the two sides ran in different environments (" +
                              util::join(report.env_fields, ", ") + "): the comparison mixes them");
  }
  report.crossover = crossover_words(report.series, request.metric.empty() ? rules.primary : request.metric);
  return report;
}

ComparisonReport compare_sets(Reader& reader, const RunSet& reference, const RunSet& candidate,
                              const CompareRequest& request)
{
  std::string why_not;
  auto report = try_compare(reader, reference, candidate, request, why_not);
  if (!report) {
    throw Error("{}", why_not);
  }
  return std::move(*report);
}

} // namespace ej::evidence
