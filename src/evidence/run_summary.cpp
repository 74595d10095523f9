#include "evidence/run_summary.h"

#include "evidence/integrity.h"
#include "evidence/measured_format.h"
#include "measure/units.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ej::evidence {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// "variant=fused,hidden=4096" as its axis/value pairs, in order.
Pairs axis_values(const std::string& params)
{
  Pairs out;
  if (params.empty()) {
    return out;
  }
  for (const auto& item : util::split(params, ',')) {
    const auto equals = item.find('=');
    out.emplace_back(item.substr(0, equals), equals == std::string::npos ? "" : item.substr(equals + 1));
  }
  return out;
}

std::string label_of(const Pairs& pairs)
{
  std::vector<std::string> parts;
  for (const auto& [axis, value] : pairs) {
    parts.push_back(axis + "=" + value);
  }
  return util::join(parts, ",");
}

// Width on a terminal: code points, so that "±" and "…" count once.
std::size_t width(const std::string& text)
{
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& text, std::size_t to)
{
  return text + std::string(to > width(text) ? to - width(text) : 0, ' ');
}

std::string table(const std::vector<std::vector<std::string>>& rows, const std::string& indent)
{
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], width(row[i]));
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += i + 1 == row.size() ? row[i] : pad(row[i], widths[i]) + "   ";
    }
    out += line + "\n";
  }
  return out;
}

std::string name_of(const SeriesSummary& s)
{
  return s.key.empty() ? s.metric : s.metric + " " + s.key;
}

// The unit values are written in: the recorded one, else the one the metric's name spells
// ("time_ms" is in ms), so that a summary never prints a bare number it could label.
std::string unit_of(const SeriesSummary& s)
{
  if (!s.unit.empty()) {
    return s.unit;
  }
  const auto named = measure::unit_in_name(s.metric);
  return named ? named->symbol : "";
}

std::string spread(const MeasuredFormat& format, const measure::Summary& summary)
{
  return summary.n > 1 ? format(summary.mean) + " ± " + format(summary.stddev) : format(summary.mean);
}

// One series without parameters, as hyperfine prints a benchmark.
std::string single_text(const SeriesSummary& s, const measure::Summary& summary, bool warn)
{
  const MeasuredFormat format(summary.mean, unit_of(s));
  std::string out = "  " + name_of(s) + "\n";
  out += table(
      {{"mean ± σ:", spread(format, summary)},
       {"median:", format(summary.median)},
       {"min … max:", fmt::format("{} … {}    n = {}", format(summary.min), format(summary.max), summary.n)}},
      "    ");
  for (const auto& warning : warn ? summary_warnings(summary, "", unit_of(s)) : std::vector<std::string>()) {
    out += "    " + warning + "\n";
  }
  return out;
}

struct Row {
  const SeriesSummary* series;
  Pairs values;
  measure::Summary summary;
};

// The series of one metric and key over a sweep's combinations: a table, then the warnings.
std::string sweep_text(const std::string& name, const std::vector<Row>& rows, bool warn)
{
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header;
  for (const auto& [axis, value] : rows.front().values) {
    header.push_back(axis);
  }
  for (const auto* column : {"mean ± σ", "median", "min … max", "n"}) {
    header.emplace_back(column);
  }
  cells.push_back(header);
  std::string warnings;
  for (const auto& row : rows) {
    const MeasuredFormat format(row.summary.mean, unit_of(*row.series));
    std::vector<std::string> line;
    for (const auto& [axis, value] : row.values) {
      line.push_back(value);
    }
    line.push_back(spread(format, row.summary));
    line.push_back(format(row.summary.median));
    line.push_back(format(row.summary.min) + " … " + format(row.summary.max));
    line.push_back(std::to_string(row.summary.n));
    cells.push_back(std::move(line));
    if (warn) {
      for (const auto& warning : summary_warnings(row.summary, label_of(row.values), unit_of(*row.series))) {
        warnings += "    " + warning + "\n";
      }
    }
  }
  return "  " + name + "\n" + table(cells, "    ") + warnings;
}

// For each axis, every other value against the axis's first, the other axes held fixed.
std::string relative_lines(const std::vector<Row>& rows, const MetricRules& rules)
{
  std::string out;
  const auto& axes = rows.front().values;
  const auto& metric = rows.front().series->metric;
  const auto quantity = quantity_of(metric, unit_of(*rows.front().series));
  const auto direction = rules.direction_of(metric, unit_of(*rows.front().series));
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const auto& first = rows.front().values[a].second;
    for (const auto& candidate : rows) {
      if (candidate.values.size() != axes.size() || candidate.values[a].second == first) {
        continue;
      }
      auto wanted = candidate.values;
      wanted[a].second = first;
      const auto reference =
          std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.values == wanted; });
      if (reference == rows.end()) {
        continue;
      }
      auto others = candidate.values;
      others.erase(others.begin() + static_cast<std::ptrdiff_t>(a));
      out += fmt::format("  {}={} {} {}={}{}\n", axes[a].first, candidate.values[a].second,
                         relative_text(candidate.summary, reference->summary, direction, quantity, metric),
                         axes[a].first, first, others.empty() ? "" : " (" + label_of(others) + ")");
    }
  }
  return out;
}

} // namespace

std::vector<std::string> summary_warnings(const measure::Summary& summary, const std::string& what,
                                          const std::string& unit)
{
  std::vector<std::string> out;
  const auto where = what.empty() ? std::string() : " (" + what + ")";
  if (summary.slow_first) {
    out.push_back(
        fmt::format("Warning{}: the first repeat was significantly slower than the rest. Caches that were "
                    "not filled until after it could cause this: consider --warmup to fill them, or "
                    "--prepare to clear them before each repeat.",
                    where));
  } else if (!summary.outlier_indices.empty()) {
    out.push_back(
        fmt::format("Warning{}: statistical outliers were detected ({} of {} repeats). Consider re-running "
                    "on a quiet system without interference from other programs; --warmup or --prepare "
                    "might help.",
                    where, summary.outlier_indices.size(), summary.n));
  }
  if (summary.cv && *summary.cv > k_high_noise_cv) {
    const MeasuredFormat format(summary.mean, unit);
    out.push_back(
        fmt::format("Warning{}: high noise: σ is {:.0f}% of the mean ({} ± {}); a difference smaller "
                    "than that is not measured. More repeats (--repeat) or a quieter machine help.",
                    where, *summary.cv * 100.0, format(summary.mean), format(summary.stddev)));
  }
  return out;
}

std::string relative_text(const measure::Summary& candidate, const measure::Summary& reference,
                          measure::Direction direction, Quantity quantity, const std::string& metric)
{
  const bool lower = candidate.mean < reference.mean;
  const bool better = lower == (direction == measure::Direction::LowerIsBetter);
  const double big = std::max(std::fabs(candidate.mean), std::fabs(reference.mean));
  const double small = std::min(std::fabs(candidate.mean), std::fabs(reference.mean));
  if (small == 0) {
    return "cannot be compared (a mean of 0) with";
  }
  const double ratio = big / small;
  const auto relative_sd = [](const measure::Summary& s) {
    return s.mean != 0 ? s.stddev / std::fabs(s.mean) : 0.0;
  };
  const double sd = ratio * std::hypot(relative_sd(candidate), relative_sd(reference));
  const auto factor = candidate.n > 1 || reference.n > 1 ? fmt::format("{:.2f} ± {:.2f}", ratio, sd)
                                                         : fmt::format("{:.2f}", ratio);
  if (quantity == Quantity::Other) {
    return fmt::format("had {} times {} {} than", factor, lower ? "lower" : "higher", metric);
  }
  return fmt::format("ran {} times {} than", factor, better ? "faster" : "slower");
}

std::string run_summary_text(const std::vector<SeriesSummary>& series, const MetricRules& rules)
{
  return run_summary_text(
      series, rules,
      [](const SeriesSummary& s, measure::Direction direction) -> std::optional<measure::Summary> {
        if (s.values.empty()) {
          return std::nullopt;
        }
        return measure::summarize(s.values, direction);
      });
}

std::string run_summary_text(const std::vector<SeriesSummary>& series, const MetricRules& rules,
                             const Summarizer& summarize)
{
  std::string out;
  // The series of one metric and key, in the order they first appear: a sweep's combinations.
  std::vector<std::pair<std::string, std::vector<const SeriesSummary*>>> groups;
  for (const auto& s : series) {
    const auto name = name_of(s);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (group == groups.end()) {
      groups.push_back({name, {}});
      group = groups.end() - 1;
    }
    group->second.push_back(&s);
  }
  // The primary metric first: it is what the run is about.
  std::stable_partition(groups.begin(), groups.end(),
                        [&](const auto& g) { return g.second.front()->metric == rules.primary; });
  std::string relative;
  std::string implausible; // values beyond a --floor (evidence/integrity.h), said last
  for (const auto& [name, members] : groups) {
    std::vector<Row> rows;
    for (const auto* s : members) {
      const auto direction = rules.direction_of(s->metric, unit_of(*s));
      auto summary = summarize(*s, direction);
      for (const auto& floor : summary ? rules.floors : std::vector<MetricRules::Floor>()) {
        const double best = direction == measure::Direction::LowerIsBetter ? summary->min : summary->max;
        const auto what = name + (s->params.empty() ? "" : " [" + s->params + "]");
        if (const auto flag = floor.floor.metric == s->metric
                                  ? beyond_floor(floor, direction, what, best, unit_of(*s))
                                  : std::nullopt) {
          implausible += "  " + *flag + "\n";
        }
      }
      if (!summary) {
        out += fmt::format("  {}{} no samples{}\n", name, s->params.empty() ? "" : " [" + s->params + "]",
                           s->skipped > 0 ? fmt::format(" ({} skipped)", s->skipped) : "");
        continue;
      }
      rows.push_back({s, axis_values(s->params), std::move(*summary)});
    }
    if (rows.empty()) {
      continue;
    }
    // Warnings for the primary metric only: the others (wall time of a benchmark that reports its
    // own time, say) would drown them.
    const bool primary = members.front()->metric == rules.primary;
    if (rows.size() == 1 && rows.front().values.empty()) {
      out += single_text(*rows.front().series, rows.front().summary, primary);
      continue;
    }
    out += sweep_text(name, rows, primary);
    if (primary) {
      relative += relative_lines(rows, rules);
    }
  }
  return out + relative + implausible;
}

} // namespace ej::evidence
