#include "evidence/wording.h"

#include "measure/units.h"
#include "render/number_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace ej::evidence {

namespace {

std::string lower(std::string_view text)
{
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return out;
}

bool contains_any(const std::string& text, std::initializer_list<std::string_view> words)
{
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view word) { return text.find(word) != std::string::npos; });
}

std::string with_unit(std::string number, std::string_view unit)
{
  if (!unit.empty()) { // appended in place: a history writes 30,000 values
    number += ' ';
    number += unit;
  }
  return number;
}

} // namespace

Quantity quantity_of(std::string_view metric, std::string_view unit)
{
  auto parsed = measure::parse_unit(unit);
  if (!parsed) {
    parsed = measure::unit_in_name(metric);
  }
  if (parsed) {
    switch (parsed->dimension) {
    case measure::Dimension::Time:
      return Quantity::Time;
    case measure::Dimension::ByteRate:
    case measure::Dimension::Rate:
      return Quantity::Rate;
    default:
      return Quantity::Other;
    }
  }
  const auto name = lower(metric);
  if (contains_any(name, {"throughput", "bandwidth", "tok_s", "per_s", "_gbs", "flops", "qps", "rps"})) {
    return Quantity::Rate;
  }
  if (contains_any(name, {"latency", "time", "ttft", "itl", "tpot", "duration"})) {
    return Quantity::Time;
  }
  return Quantity::Other;
}

std::string change_text(const measure::Comparison& c, std::string_view unit)
{
  if (c.estimate == measure::Estimate::Ratio) {
    return render::format_change_percent(*c.change_pct);
  }
  return with_unit(render::format_signed_number(*c.shift, 3), unit);
}

std::string interval_text(const measure::Comparison& c, std::string_view unit)
{
  if (c.estimate == measure::Estimate::Ratio) {
    if (!c.change_low_pct) {
      return "";
    }
    return fmt::format("[{}, {}]", render::format_change_percent(*c.change_low_pct),
                       render::format_change_percent(*c.change_high_pct));
  }
  if (!c.shift_low) {
    return "";
  }
  return fmt::format("[{}, {}]", with_unit(render::format_signed_number(*c.shift_low, 3), unit),
                     with_unit(render::format_signed_number(*c.shift_high, 3), unit));
}

std::string factor_text(const measure::Comparison& c, Quantity quantity)
{
  if (!c.ratio) {
    return "";
  }
  const double ratio = *c.ratio;
  const bool up = ratio >= 1;
  const double factor = up ? ratio : 1 / ratio;
  const auto number = render::format_number(factor, 3) + "x";
  if (number == "1.00x") {
    return ""; // the percentage says it better
  }
  switch (quantity) {
  case Quantity::Time:
    return number + (up ? " slower" : " faster");
  case Quantity::Rate:
    return number + (up ? " higher throughput" : " lower throughput");
  case Quantity::Other:
    break;
  }
  return number + (up ? " higher" : " lower");
}

std::string basis_text(const measure::Comparison& c)
{
  switch (c.basis) {
  case measure::Basis::SingleFigures:
    return "single figures, no test";
  case measure::Basis::TooFewSamples:
    return fmt::format("too few samples for a test (n = {} vs {})", c.n_reference, c.n_candidate);
  case measure::Basis::Test:
    break;
  }
  return *c.p_value < 0.0001 ? "p<0.0001" : "p=" + render::format_number(*c.p_value, 2);
}

std::string value_text(double value, std::string_view unit)
{
  return with_unit(render::format_number(value, 4), unit);
}

std::string comparison_text(const measure::Comparison& c, std::string_view unit, Quantity quantity)
{
  std::string text = change_text(c, unit);
  if (const auto interval = interval_text(c, unit); !interval.empty()) {
    text += " " + interval;
  }
  if (const auto factor = factor_text(c, quantity); !factor.empty()) {
    text += " " + factor;
  }
  if (c.basis != measure::Basis::Test) {
    return text + ", " + basis_text(c);
  }
  return fmt::format("{}, {} ({})", text, measure::to_string(c.outcome), basis_text(c));
}

} // namespace ej::evidence
