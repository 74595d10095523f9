#include "evidence/integrity.h"

#include "measure/statistics.h"
#include "measure/units.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <map>

namespace ej::evidence {

std::string_view to_string(Validity validity)
{
  constexpr std::array<std::string_view, 3> names{"valid", "suspect", "invalid"}; // the enum's order
  static_assert(static_cast<std::size_t>(Validity::Invalid) + 1 == names.size());
  return names.at(static_cast<std::size_t>(validity));
}

std::optional<std::string> beyond_floor(const MetricRules::Floor& floor, measure::Direction direction,
                                        const std::string& what, double value, const std::string& unit)
{
  double in_floor_unit = value;
  if (unit != floor.unit) {
    const auto from = measure::parse_unit(unit);
    const auto to = measure::parse_unit(floor.unit);
    if (!from || !to || !measure::convertible(*from, *to)) {
      return std::nullopt;
    }
    in_floor_unit = measure::convert(value, *from, *to);
  }
  const bool lower = direction == measure::Direction::LowerIsBetter;
  if (lower ? in_floor_unit >= floor.floor.value : in_floor_unit <= floor.floor.value) {
    return std::nullopt;
  }
  const auto bound = floor.unit.empty() ? fmt::format("{:g}", floor.floor.value)
                                        : fmt::format("{:g} {}", floor.floor.value, floor.unit);
  return fmt::format("implausible: {} {:g}{} is {} its floor {} (--floor)", what, value,
                     unit.empty() ? "" : " " + unit, lower ? "below" : "above", bound);
}

std::vector<std::string> floor_flags(const std::vector<SeriesSummary>& series, const MetricRules& rules)
{
  std::vector<std::string> flags;
  for (const auto& floor : rules.floors) {
    for (const auto& s : series) {
      if (s.metric != floor.floor.metric || s.values.empty()) {
        continue;
      }
      const auto direction = rules.direction_of(s.metric, s.unit);
      const bool lower = direction == measure::Direction::LowerIsBetter;
      const double best = lower ? *std::min_element(s.values.begin(), s.values.end())
                                : *std::max_element(s.values.begin(), s.values.end());
      std::string what = s.metric;
      if (!s.params.empty() || !s.key.empty()) {
        what += " [" + s.params + (s.params.empty() || s.key.empty() ? "" : " ") + s.key + "]";
      }
      if (auto flag = beyond_floor(floor, direction, what, best, s.unit)) {
        flags.push_back(std::move(*flag));
      }
    }
  }
  return flags;
}

std::vector<std::string> sides_floor_flags(const std::vector<SeriesSummary>& reference,
                                           const std::vector<SeriesSummary>& candidate,
                                           const MetricRules& rules, std::string_view side)
{
  auto flags = floor_flags(candidate, rules);
  for (const auto& flag : floor_flags(reference, rules)) {
    flags.push_back(fmt::format("{}, in the {}", flag, side));
  }
  return flags;
}

Integrity integrity_of(std::optional<std::string> differs, std::vector<std::string> flags)
{
  Integrity integrity;
  integrity.flags = std::move(flags);
  if (differs) {
    integrity.validity = Validity::Invalid;
    integrity.invalid_reason = std::move(*differs);
  } else if (!integrity.flags.empty()) {
    integrity.validity = Validity::Suspect;
  }
  return integrity;
}

std::string integrity_text(const Integrity& integrity)
{
  std::string out;
  if (integrity.validity == Validity::Invalid) {
    out = "invalid: " + integrity.invalid_reason;
  }
  if (!integrity.flags.empty()) {
    out += (out.empty() ? "flagged: " : "; flagged: ") + util::join(integrity.flags, "; ");
  }
  return out;
}

namespace {

// The digests of a side's runs by combination; a combination whose repeats disagreed, or whose
// runs did, is "varies".
std::map<std::string, std::string> digests_of(const std::vector<nlohmann::json>& outputs, bool& any)
{
  std::map<std::string, std::string> out;
  for (const auto& run : outputs) {
    const auto same = run.is_object() ? run.find("same_output") : run.end();
    if (!run.is_object() || same == run.end() || !same->is_object()) {
      continue;
    }
    any = true;
    const auto digests = same->value("digests", nlohmann::json::object());
    for (const auto& [params, digest] : digests.items()) {
      if (!digest.is_string()) {
        continue;
      }
      const auto [it, first] = out.emplace(params, digest.get<std::string>());
      if (!first && it->second != digest.get<std::string>()) {
        it->second = "varies";
      }
    }
    for (const auto& params : same->value("varies", nlohmann::json::array())) {
      if (params.is_string()) {
        out[params.get<std::string>()] = "varies";
      }
    }
  }
  return out;
}

std::string at(const std::string& params)
{
  return params.empty() ? "" : " at " + params;
}

} // namespace

std::optional<std::string> digests_differ(const std::vector<nlohmann::json>& reference_outputs,
                                          const std::vector<nlohmann::json>& candidate_outputs,
                                          std::string_view side)
{
  bool reference_has = false;
  bool candidate_has = false;
  const auto reference = digests_of(reference_outputs, reference_has);
  const auto candidate = digests_of(candidate_outputs, candidate_has);
  if (!candidate_has) {
    return std::nullopt; // measured before the benchmark asked for it: said by the revision check
  }
  for (const auto& [params, digest] : candidate) {
    const auto theirs = reference.find(params);
    if (digest == "varies") {
      return fmt::format("the candidate's output varies from repeat to repeat{}, so it cannot be held "
                         "against the {}'s",
                         at(params), side);
    }
    if (theirs == reference.end()) {
      continue;
    }
    if (theirs->second == "varies") {
      return fmt::format("the {}'s output varies from repeat to repeat{}", side, at(params));
    }
    if (digest == "missing") {
      return fmt::format("the candidate wrote no output file{}", at(params));
    }
    if (theirs->second != digest) {
      return fmt::format("output differs from the {}'s{}", side, at(params));
    }
  }
  return std::nullopt;
}

std::optional<std::string> metric_differs(const std::vector<SeriesSummary>& reference,
                                          const std::vector<SeriesSummary>& candidate,
                                          const core::SameOutput& same, std::string_view side)
{
  for (const auto& c : candidate) {
    if (c.metric != same.name || c.values.empty()) {
      continue;
    }
    for (const auto& r : reference) {
      if (r.metric != c.metric || r.params != c.params || r.key != c.key || r.values.empty()) {
        continue;
      }
      const double theirs = measure::median(r.values);
      const double ours = measure::median(c.values);
      const double allowed = std::abs(theirs) * same.tolerance_pct / 100.0;
      if (std::abs(ours - theirs) > allowed) {
        return fmt::format("output differs from the {}'s{}: {} {:g} vs {:g}{}", side, at(c.params), c.metric,
                           ours, theirs,
                           same.tolerance_pct > 0 ? fmt::format(", beyond {:g}%", same.tolerance_pct) : "");
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> timer_disagreements(const std::vector<SeriesComparison>& judged,
                                             const std::vector<SeriesComparison>& wall)
{
  std::vector<std::string> out;
  for (const auto& s : judged) {
    if (s.quantity != Quantity::Time || s.comparison.outcome != measure::Outcome::Improved) {
      continue;
    }
    for (const auto& w : wall) {
      // Decisive, and by more than the noise of a process's start: a 10% slower wall time at least,
      // and 5 ms at least, many times what a loaded machine added to a millisecond process in CI.
      const double slower_s = w.comparison.candidate_median - w.comparison.reference_median;
      if (w.params == s.params && w.comparison.outcome == measure::Outcome::Regressed &&
          w.comparison.change_pct.value_or(0) >= 10 && slower_s >= k_wall_jitter_s) {
        out.push_back(fmt::format(
            "the benchmark's own timer and the process's wall time disagree{}: {} {} while wall_s {}",
            at(s.params), s.metric, change_text(s.comparison, s.unit), change_text(w.comparison, w.unit)));
      }
    }
  }
  return out;
}

} // namespace ej::evidence
