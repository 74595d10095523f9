#include "render/number_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace ej::render {

namespace {

// "-0.00" and "-0" become "0.00" and "0": a sign on nothing is noise in a diff.
std::string without_negative_zero(std::string_view text)
{
  if (text.size() > 1 && text[0] == '-' && text.find_first_not_of("0.", 1) == std::string_view::npos) {
    text.remove_prefix(1);
  }
  return std::string(text);
}

// The digits of `value` as printf's %.*e or %.*f writes them (correctly rounded, no locale), into
// `buffer`: std::to_chars, not fmt's runtime format strings, because a plan document formats tens
// of thousands of numbers. Values too long for the buffer (fixed notation of 1e300) go through fmt.
struct Digits {
  char buffer[128];
  std::string_view text;
  std::string spill;

  Digits(double value, std::chars_format format, int precision)
  {
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, format, precision);
    if (error == std::errc()) {
      text = std::string_view(buffer, static_cast<std::size_t>(end - buffer));
    } else {
      spill = format == std::chars_format::fixed ? fmt::format("{:.{}f}", value, precision)
                                                 : fmt::format("{:.{}e}", value, precision);
      text = spill;
    }
  }
  Digits(const Digits&) = delete;
  Digits& operator=(const Digits&) = delete;
};

// The fixed notation of a value from its scientific one ("-1.235e+01" with exponent 1: "-12.35"),
// for as many decimals as the scientific digits reach: printf's %.*f at those decimals rounds at
// the same digit, so it writes the same digits (when rounding carried into a new leading digit,
// 9.996 -> "1.00e+01", the coarser rounding of %.1f gives "10.0" too). One conversion instead of
// two: a history of 10,000 commits formats 30,000 numbers.
std::string point_placed(std::string_view scientific, int exponent)
{
  // At most a sign, "0.", 5 zeros (exponent -6) and 17 digits.
  char out[32];
  std::size_t size = 0;
  if (scientific.front() == '-') {
    out[size++] = '-';
    scientific.remove_prefix(1);
  }
  char digits[24];
  std::size_t count = 0;
  for (const char c : scientific.substr(0, scientific.find('e'))) {
    if (c != '.') {
      digits[count++] = c;
    }
  }
  if (exponent < 0) {
    out[size++] = '0';
    out[size++] = '.';
    for (int zero = -1; zero > exponent; --zero) {
      out[size++] = '0';
    }
    std::copy(digits, digits + count, out + size);
    return std::string(out, size + count);
  }
  const auto integer_digits = static_cast<std::size_t>(exponent) + 1; // at most count: decimals >= 0
  std::copy(digits, digits + integer_digits, out + size);
  size += integer_digits;
  if (integer_digits < count) {
    out[size++] = '.';
    std::copy(digits + integer_digits, digits + count, out + size);
    size += count - integer_digits;
  }
  return std::string(out, size);
}

} // namespace

std::string format_number(double value, int significant)
{
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-inf" : "inf";
  }
  significant = std::clamp(significant, 1, 17);
  if (value == 0) {
    return significant == 1 ? "0" : "0." + std::string(static_cast<std::size_t>(significant - 1), '0');
  }
  // Round to the significant digits first, then read the exponent of the rounded value, so that
  // 9.996 with 3 digits becomes "10.0", not "10.00".
  const Digits scientific(value, std::chars_format::scientific, significant - 1);
  const auto e = scientific.text.find('e');
  int exponent = 0;
  const char* first = scientific.text.data() + e + 1;
  first += *first == '+' ? 1 : 0; // from_chars reads a minus sign only
  std::from_chars(first, scientific.text.data() + scientific.text.size(), exponent);
  if (exponent < -6 || exponent >= 15) {
    return without_negative_zero(scientific.text);
  }
  const int decimals = significant - 1 - exponent;
  if (decimals < 0) {
    return std::string(Digits(value, std::chars_format::fixed, 0).text); // the integer part, all of it
  }
  return point_placed(scientific.text, exponent);
}

std::string format_percent(double percent, int decimals)
{
  if (!std::isfinite(percent)) {
    return "n/a";
  }
  decimals = std::clamp(decimals, 0, 10);
  const auto text = without_negative_zero(Digits(percent, std::chars_format::fixed, decimals).text);
  const bool zero = text.find_first_not_of("-0.") == std::string::npos;
  if (zero || text[0] == '-') {
    return text + "%";
  }
  return "+" + text + "%";
}

std::string format_change_percent(double percent)
{
  if (!std::isfinite(percent)) {
    return "n/a";
  }
  // Decimals for 3 significant digits, never fewer than one; a value that rounds up to the next
  // power of ten (9.996 -> 10.0) takes the decimals of that power. Thresholds, not log10: a plan
  // document formats tens of thousands of these.
  const double magnitude = std::abs(percent);
  int decimals = 1;
  double bound = 9.995;
  for (int d = 2; d <= 10 && magnitude > 0 && magnitude < bound; ++d, bound /= 10) {
    decimals = d;
  }
  return format_percent(percent, decimals);
}

std::string format_signed_number(double value, int significant)
{
  const auto text = format_number(value, significant);
  if (text == "0" || text.front() == '-' || !std::isfinite(value)) {
    return text;
  }
  return "+" + text;
}

std::optional<double> relative_change_percent(double baseline, double value)
{
  if (baseline == 0 || !std::isfinite(baseline) || !std::isfinite(value)) {
    return std::nullopt;
  }
  return (value - baseline) / std::abs(baseline) * 100.0;
}

} // namespace ej::render
