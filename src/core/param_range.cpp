#include "core/param_range.h"

#include "util/error.h"
#include "util/strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>

namespace ej::core {

namespace {

// A decimal number as an integer count of 10^-decimals: "-1.25" -> {-125, 2}.
struct Decimal {
  std::int64_t scaled = 0;
  int decimals = 0;
};

std::optional<Decimal> parse_decimal(std::string_view text)
{
  Decimal out;
  const bool negative = !text.empty() && text.front() == '-';
  if (negative || (!text.empty() && text.front() == '+')) {
    text.remove_prefix(1);
  }
  const auto dot = text.find('.');
  std::string digits(text.substr(0, dot));
  if (dot != std::string_view::npos) {
    const auto fraction = text.substr(dot + 1);
    out.decimals = static_cast<int>(fraction.size());
    digits += fraction;
  }
  if (digits.empty() || out.decimals > 9 || digits.size() > 17 ||
      (dot != std::string_view::npos && (dot == 0 || out.decimals == 0))) {
    return std::nullopt;
  }
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out.scaled);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  out.scaled = negative ? -out.scaled : out.scaled;
  return out;
}

std::int64_t rescale(const Decimal& value, int decimals)
{
  std::int64_t out = value.scaled;
  for (int i = value.decimals; i < decimals; ++i) {
    out *= 10;
  }
  return out;
}

std::string format_scaled(std::int64_t scaled, int decimals)
{
  const bool negative = scaled < 0;
  const auto digits = std::to_string(negative ? -scaled : scaled);
  const auto places = static_cast<std::size_t>(decimals);
  // At least one digit before the point: 5 with 2 decimals is "0.05".
  const std::string padded = std::string(digits.size() <= places ? places + 1 - digits.size() : 0, '0') + digits;
  std::string out = negative ? "-" : "";
  out += std::string_view(padded).substr(0, padded.size() - places);
  if (places > 0) {
    out += '.';
    out += std::string_view(padded).substr(padded.size() - places);
  }
  return out;
}

} // namespace

std::vector<std::string> expand_range(std::string_view range)
{
  const auto dots = range.find("..");
  const auto colon = range.find(':');
  if (dots == std::string_view::npos || colon < dots) {
    throw UsageError(
        "'{}' is not a range; write MIN..MAX or MIN..MAX:STEP with numbers, e.g. 1024..4096:1024", range);
  }
  const auto end_text =
      range.substr(dots + 2, colon == std::string_view::npos ? std::string_view::npos : colon - dots - 2);
  const auto first = parse_decimal(range.substr(0, dots));
  const auto last = parse_decimal(end_text);
  const auto step = colon == std::string_view::npos ? Decimal{1, 0} : parse_decimal(range.substr(colon + 1));
  if (!first || !last || !step) {
    throw UsageError(
        "'{}' is not a range; write MIN..MAX or MIN..MAX:STEP with numbers, e.g. 1024..4096:1024", range);
  }
  const int decimals = std::max({first->decimals, last->decimals, step->decimals});
  const auto from = rescale(*first, decimals);
  const auto to = rescale(*last, decimals);
  const auto by = rescale(*step, decimals);
  if (by <= 0) {
    throw UsageError("the range '{}' needs a positive step", range);
  }
  if (from > to) {
    throw UsageError("the range '{}' is empty: its start is above its end", range);
  }
  if ((to - from) / by >= static_cast<std::int64_t>(k_max_range_values)) {
    throw UsageError("the range '{}' has more than {} values; use a larger step", range, k_max_range_values);
  }
  std::vector<std::string> values;
  for (auto value = from; value <= to; value += by) {
    values.push_back(format_scaled(value, decimals));
  }
  return values;
}

std::vector<std::string> expand_param_values(std::string_view list)
{
  std::vector<std::string> values;
  for (const auto& item : util::split(list, ',')) {
    // A range starts with a number: "../build" stays a path.
    const bool range = item.find("..") != std::string::npos && !item.empty() &&
                       (std::isdigit(static_cast<unsigned char>(item.front())) || item.front() == '-' ||
                        item.front() == '+');
    if (!range) {
      values.push_back(item);
      continue;
    }
    for (auto& value : expand_range(item)) {
      values.push_back(std::move(value));
    }
  }
  return values;
}

} // namespace ej::core
