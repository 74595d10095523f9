#include "evidence/crossover.h"

#include "evidence/run_set.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

namespace ej::evidence {

namespace {

std::optional<double> numeric(const std::string& text)
{
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// "1, 2 and 8"
std::string listed(const std::vector<std::string>& items)
{
  if (items.size() == 1) {
    return items.front();
  }
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return util::join(head, ", ") + " and " + items.back();
}

enum class Side { Wins, Neither, Loses };

Side side_of(measure::Outcome outcome)
{
  switch (outcome) {
  case measure::Outcome::Improved:
    return Side::Wins;
  case measure::Outcome::Regressed:
    return Side::Loses;
  default:
    return Side::Neither;
  }
}

struct Point {
  std::string value; // the varying axis's value, or the whole combination
  measure::Outcome outcome;
};

// The values of one group, said as a range from an end of the sweep when they are one
// ("<= 2", ">= 4"), else listed.
std::string values_text(const std::vector<std::size_t>& indexes, const std::vector<Point>& points,
                        bool ordered)
{
  std::vector<std::string> values;
  for (const auto i : indexes) {
    values.push_back(points[i].value);
  }
  const bool contiguous = indexes.back() - indexes.front() + 1 == indexes.size();
  if (ordered && contiguous && indexes.size() >= 2) {
    if (indexes.front() == 0) {
      return "<= " + values.back();
    }
    if (indexes.back() == points.size() - 1) {
      return ">= " + values.front();
    }
  }
  return listed(values);
}

std::string verb(Side side, measure::Outcome outcome)
{
  switch (side) {
  case Side::Wins:
    return "wins";
  case Side::Loses:
    return "loses";
  case Side::Neither:
    break;
  }
  return std::string(measure::to_string(outcome));
}

} // namespace

std::string crossover_words(const std::vector<SeriesComparison>& series, const std::string& metric)
{
  std::vector<const SeriesComparison*> sweep;
  for (const auto& s : series) {
    if (s.metric == metric && !s.params.empty() && s.key.empty()) {
      sweep.push_back(&s);
    }
  }
  if (sweep.size() < 2) {
    return "";
  }
  // The axes whose values differ between combinations.
  std::map<std::string, std::set<std::string>> seen;
  for (const auto* s : sweep) {
    for (const auto& [axis, value] : parse_params_label(s->params)) {
      seen[axis].insert(value);
    }
  }
  std::vector<std::string> varying;
  for (const auto& [axis, values] : seen) {
    if (values.size() > 1) {
      varying.push_back(axis);
    }
  }
  std::vector<Point> points;
  bool ordered = false;
  std::string axis_name;
  if (varying.size() == 1) {
    axis_name = varying.front();
    for (const auto* s : sweep) {
      points.push_back({parse_params_label(s->params)[axis_name], s->comparison.outcome});
    }
    ordered = std::all_of(points.begin(), points.end(),
                          [](const Point& p) { return numeric(p.value).has_value(); });
    if (ordered) {
      std::stable_sort(points.begin(), points.end(),
                       [](const Point& a, const Point& b) { return *numeric(a.value) < *numeric(b.value); });
    }
  } else {
    for (const auto* s : sweep) {
      points.push_back({s->params, s->comparison.outcome});
    }
  }
  // Groups in the order wins, the others by outcome, loses; each with its points in sweep order.
  std::vector<std::pair<std::pair<int, measure::Outcome>, std::vector<std::size_t>>> groups;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto side = side_of(points[i].outcome);
    const std::pair<int, measure::Outcome> key{
        static_cast<int>(side), side == Side::Neither ? points[i].outcome : measure::Outcome::Improved};
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) {
      groups.push_back({key, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(i);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
  std::vector<std::string> phrases;
  for (const auto& [key, indexes] : groups) {
    const auto words = verb(static_cast<Side>(key.first), key.second);
    if (indexes.size() == points.size()) {
      phrases.push_back(axis_name.empty() ? words + " at every combination"
                                          : words + " at every " + axis_name);
      continue;
    }
    const auto values = values_text(indexes, points, ordered);
    if (phrases.empty() && !axis_name.empty()) {
      const bool range = values.starts_with("<=") || values.starts_with(">=");
      phrases.push_back(fmt::format("{} at {}{}{}", words, axis_name, range ? " " : " = ", values));
    } else {
      phrases.push_back(fmt::format("{} at {}", words, values));
    }
  }
  return util::join(phrases, ", ");
}

} // namespace ej::evidence
