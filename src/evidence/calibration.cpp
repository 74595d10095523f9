#include "evidence/calibration.h"

#include "core/bench_definition.h"

#include "core/numbering.h"
#include "evidence/metric_rules.h"
#include "measure/paired.h"
#include "measure/power.h"
#include "measure/statistics.h"
#include "measuring/interleaved_pairs.h"
#include "store/run_queries.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <map>

namespace ej::evidence {

namespace {

constexpr int k_sizes[] = {10, 20, 50};

// A spread or shift on the log scale as the percent change it means; on a difference scale as is.
double in_units(double value, bool relative)
{
  return relative ? (std::exp(value) - 1) * 100 : value;
}

} // namespace

double Calibration::drift_amount() const
{
  return in_units(drift, relative);
}

double Calibration::paired_noise_in_blocks(int session_block) const
{
  // A side's median of B repeats is their mean for B <= 2; beyond, normal noise spreads it at most
  // sqrt(pi / 2B) times one repeat (the large-B limit, above the exact figure at every B: 0.72 against
  // 0.67 at B = 3), so that a session in blocks is never sized at less noise than its medians have.
  const double b = std::max(1, session_block);
  return b <= 2 ? paired_noise / std::sqrt(b) : paired_noise * std::sqrt(std::numbers::pi / (2 * b));
}

double Calibration::detectable_interleaved(std::size_t n, int session_block) const
{
  return std::abs(in_units(
      measure::detectable_effect(paired_noise_in_blocks(session_block), n, measure::Pairing::Paired), relative));
}

double Calibration::detectable_sequential(std::size_t repeats) const
{
  return std::abs(
      in_units(measure::detectable_effect(single_noise, repeats, measure::Pairing::TwoSample), relative));
}

std::string Calibration::amount(double effect) const
{
  return relative ? fmt::format("±{:.1f}%", effect)
                  : fmt::format("±{:.3g}{}", effect, unit.empty() ? "" : " " + unit);
}

std::optional<Calibration> read_calibration(store::Database& db, const store::InterleavedRecord& record)
{
  // A session that failed or was cut short, or a withdrawn side, calibrates nothing.
  const auto run = store::find_run(db, record.candidate);
  const auto other = store::find_run(db, record.reference);
  if (!run || !other || record.design.stopped == core::SessionStop::Failed ||
      run->status != core::RunStatus::Finished || other->status != core::RunStatus::Finished ||
      run->withdrawn() || other->withdrawn()) {
    return std::nullopt;
  }
  const auto bench = store::find_bench_revision(db, run->bench, run->revision);
  if (!bench) {
    return std::nullopt;
  }
  std::vector<std::string> damage;
  const auto rules = rules_of(core::bench_definition_from_json(bench->definition, damage));
  Calibration out;
  out.event_id = record.event_id;
  out.candidate = record.candidate;
  out.reference = record.reference;
  out.bench = run->bench;
  out.revision = run->revision;
  out.env_blob = run->env_blob;
  out.time_ms = run->started_ms;
  out.metric = rules.primary;
  std::map<std::string, std::vector<store::events::ComparisonInterleaved::Round>> by_combination;
  for (const auto& round : record.design.rounds) {
    by_combination[round.params].push_back(round);
  }
  // Pooled over the combinations on the log scale (scale-free) when every value is positive.
  std::vector<double> paired;
  std::vector<double> single;
  std::vector<std::pair<double, double>> drifts; // and their standard errors
  for (const auto& [params, rounds] : by_combination) {
    for (const auto& series : measuring::paired_series(db, record.candidate, record.reference, rounds)) {
      if (series.metric != rules.primary || series.candidate.size() < 2) {
        continue;
      }
      const auto values = measure::paired_values(series.candidate, series.reference);
      out.relative = out.relative && values.scale == measure::PairedScale::LogRatio;
      out.unit = series.unit;
      paired.insert(paired.end(), values.values.begin(), values.values.end());
      const auto scaled = [&](double x) {
        return values.scale == measure::PairedScale::LogRatio ? std::log(x) : x;
      };
      std::vector<double> level;
      for (const auto* side : {&series.candidate, &series.reference}) {
        std::vector<double> own;
        for (const double x : *side) {
          own.push_back(scaled(x));
        }
        single.push_back(measure::sample_sigma(own));
      }
      for (std::size_t i = 0; i < series.candidate.size(); ++i) {
        level.push_back((scaled(series.candidate[i]) + scaled(series.reference[i])) / 2);
      }
      drifts.emplace_back(measure::level_drift(level), measure::level_drift_error(level));
    }
  }
  if (paired.size() < 2) {
    return std::nullopt;
  }
  // With --block B a round's value a side is the median of B repeats, about 1/sqrt(B) as noisy as one
  // repeat: scaled back to rounds of one repeat a side, which `ej run --against` measures unless told
  // otherwise and the next steps propose. Exact for B <= 2 (the median is the mean); for larger
  // blocks of normal noise it overstates by up to 25% (the median's spread is sqrt(pi/2) the
  // mean's), which sizes more rounds, never fewer.
  out.block = std::max(1, record.design.block);
  const double per_repeat = std::sqrt(static_cast<double>(out.block));
  out.paired_noise = measure::sample_sigma(paired) * per_repeat;
  out.single_noise = measure::median(single) * per_repeat; // one per side and series: never empty
  // The drift of the combination that moved most: the machine's, whichever combination showed it;
  // real only when beyond what noise alone draws (two standard errors).
  const auto most = *std::max_element(drifts.begin(), drifts.end(), [](const auto& a, const auto& b) {
    return std::abs(a.first) < std::abs(b.first);
  });
  out.drift = most.first;
  out.drift_beyond_noise = std::abs(most.first) > 2 * most.second;
  out.rounds = record.design.rounds.size();
  for (const int n : k_sizes) {
    out.interleaved.push_back({n, out.detectable_interleaved(static_cast<std::size_t>(n))});
    out.sequential.push_back({n, out.detectable_sequential(static_cast<std::size_t>(n))});
  }
  return out;
}

bool calibration_applies(store::Database& db, const std::string& bench, int calibrated, int revision)
{
  if (calibrated == revision) {
    return true;
  }
  const auto a = store::find_bench_revision(db, bench, calibrated);
  const auto b = store::find_bench_revision(db, bench, revision);
  return a && b && core::stored_measure_alike(a->definition, b->definition);
}

std::optional<Calibration> latest_calibration(store::Database& db, const std::string& bench,
                                              const std::string& env_blob, std::optional<int> revision)
{
  for (const auto& record : store::calibrations_of(db, bench)) {
    auto calibration = read_calibration(db, record);
    if (calibration && (env_blob.empty() || calibration->env_blob == env_blob) &&
        (!revision || calibration_applies(db, bench, calibration->revision, *revision))) {
      return calibration;
    }
  }
  return std::nullopt;
}

std::string could_detect_text(const std::string& amount, std::size_t n, bool interleaved)
{
  return fmt::format("could detect {} at {} {}", amount, n, interleaved ? "rounds" : "repeats");
}

std::vector<std::string> calibration_lines(const Calibration& c)
{
  const auto figure = [&](double log_value) {
    return c.relative ? fmt::format("{:.2f}%", in_units(log_value, true))
                      : fmt::format("{:.3g}{}", log_value, c.unit.empty() ? "" : " " + c.unit);
  };
  const auto sizes = [&](const std::vector<Detectable>& list, const char* what) {
    std::vector<std::string> parts;
    for (const auto& d : list) {
      parts.push_back(fmt::format("{} at {} {}", c.amount(d.effect), d.rounds, what));
    }
    return fmt::format("{}, {} and {}", parts[0], parts[1], parts[2]);
  };
  return {
      fmt::format("calibrated {} by runs {} and {} ({} r{}, {} rounds of {} against itself{})",
                  util::format_utc(c.time_ms), core::number_label(c.candidate),
                  core::number_label(c.reference), c.bench, c.revision, c.rounds, c.metric,
                  c.block > 1 ? fmt::format(", in blocks of {}", c.block) : ""),
      fmt::format("noise: {} between the two sides of a round, {} from one repeat to the next{}",
                  figure(c.paired_noise), figure(c.single_noise),
                  c.block > 1 ? " (per repeat: the blocks' noise times the square root of their size)" : ""),
      fmt::format("drift: the level moved {}{} over the session{}", c.drift >= 0 ? "+" : "", figure(c.drift),
                  c.drift_beyond_noise ? "" : ", within what noise alone moves it"),
      "could detect (80% power, 5% two-sided): interleaved " + sizes(c.interleaved, "rounds"),
      "                                         sequential " + sizes(c.sequential, "repeats a side"),
  };
}

nlohmann::json to_json(const Calibration& c)
{
  const auto list = [](const std::vector<Detectable>& detectable) {
    auto out = nlohmann::json::array();
    for (const auto& d : detectable) {
      out.push_back({{"n", d.rounds}, {"effect", d.effect}});
    }
    return out;
  };
  return {{"comparison", c.event_id},
          {"runs", {c.candidate, c.reference}},
          {"bench", c.bench},
          {"revision", c.revision},
          {"environment", c.env_blob},
          {"time", util::format_utc(c.time_ms)},
          {"metric", c.metric},
          {"unit", c.unit},
          {"scale", c.relative ? "percent" : "unit"},
          {"rounds", c.rounds},
          {"block", c.block},
          {"paired_noise", in_units(c.paired_noise, c.relative)},
          {"single_noise", in_units(c.single_noise, c.relative)},
          {"drift", c.drift_amount()},
          {"drift_beyond_noise", c.drift_beyond_noise},
          {"detectable_interleaved", list(c.interleaved)},
          {"detectable_sequential", list(c.sequential)}};
}

} // namespace ej::evidence
