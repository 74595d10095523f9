#include "evidence/document_parts.h"

#include "evidence/run_set.h"
#include "measure/statistics.h"
#include "render/markdown_escape.h"
#include "render/number_format.h"

#include <algorithm>

namespace ej::evidence::document {

std::string inline_text(std::string_view text)
{
  return render::escape_markdown_inline(text);
}

std::string cell(std::string_view text)
{
  return render::escape_table_cell(text);
}

std::string number(double value)
{
  return render::format_number(value, 4);
}

std::string short_commit(const std::string& commit, std::size_t length)
{
  return commit.empty() ? "" : commit.substr(0, length);
}

std::string series_where(const SeriesSummary& series)
{
  if (series.params.empty()) {
    return series.key;
  }
  return series.key.empty() ? series.params : series.params + " " + series.key;
}

const SeriesSummary* series_at(const std::vector<SeriesSummary>& series, const std::string& metric,
                               const core::ParamValues& headline)
{
  const SeriesSummary* only = nullptr;
  std::size_t count = 0;
  for (const auto& s : series) {
    if (s.metric != metric || s.values.empty()) {
      continue;
    }
    ++count;
    only = &s;
    if (headline.empty() || !s.key.empty()) {
      continue;
    }
    const auto values = parse_params_label(s.params);
    bool named = false;
    bool matches = true;
    for (const auto& [axis, value] : headline) {
      if (const auto found = values.find(axis); found != values.end()) {
        named = true;
        matches = matches && found->second == value;
      }
    }
    if (named && matches) {
      return &s;
    }
  }
  return count == 1 ? only : nullptr;
}

std::string value_text(const std::vector<SeriesSummary>& series, const std::string& metric,
                       const core::ParamValues& headline)
{
  if (const auto* s = series_at(series, metric, headline)) {
    return number(measure::median(s->values));
  }
  std::vector<double> medians;
  for (const auto& s : series) {
    if (s.metric == metric && !s.values.empty()) {
      medians.push_back(measure::median(s.values));
    }
  }
  if (medians.empty()) {
    return "";
  }
  const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  return number(*low) + " … " + number(*high);
}

std::optional<double> value_at(const std::vector<SeriesSummary>& series, const std::string& metric,
                               const core::ParamValues& headline)
{
  if (const auto* s = series_at(series, metric, headline)) {
    return measure::median(s->values);
  }
  return std::nullopt;
}

std::string change_of(const Verdict& verdict)
{
  if (const auto* s = verdict.headline_comparison()) {
    return change_text(s->comparison, s->unit);
  }
  const auto value = [](const SeriesComparison& s) {
    return s.comparison.change_pct ? *s.comparison.change_pct : s.comparison.shift.value_or(0);
  };
  const auto [low, high] = std::minmax_element(
      verdict.combinations.begin(), verdict.combinations.end(),
      [&](const SeriesComparison& a, const SeriesComparison& b) { return value(a) < value(b); });
  return change_text(low->comparison, low->unit) + " … " + change_text(high->comparison, high->unit);
}

std::string outcome_of(const Verdict& verdict)
{
  const auto* s = verdict.headline_comparison();
  if (s == nullptr) {
    return std::string(measure::to_string(verdict.outcome));
  }
  if (s->comparison.basis != measure::Basis::Test) {
    return "no test"; // single figures, or too few samples: the attempt's evidence says which
  }
  return std::string(measure::to_string(s->comparison.outcome));
}

std::string unbreakable(const std::string& text)
{
  std::string out;
  for (const char c : text) {
    out += c == ' ' ? std::string("\u00a0") : std::string(1, c);
  }
  return out;
}

} // namespace ej::evidence::document
