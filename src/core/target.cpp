#include "core/target.h"

#include "core/slug.h"
#include "util/error.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace ej::core {
namespace {

bool is_space(char c)
{
  return c == ' ' || c == '\t';
}

bool starts_name(char c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

bool continues_name(char c)
{
  return starts_name(c) || (c >= '0' && c <= '9') || c == '.';
}

bool is_operator_char(char c)
{
  return c == '<' || c == '>' || c == '=' || c == '!';
}

} // namespace

Target parse_target(std::string_view whole)
{
  std::string_view text = whole;
  const auto fail = [&](std::string_view why) {
    throw UsageError("invalid target '{}': {}; write [BENCH:]METRIC OP NUMBER with OP one of < <= > >=, "
                     "e.g. 'verify_ms < 15'",
                     whole, why);
  };
  Target target;
  // "BENCH:" before the metric names the benchmark; a ':' after the operator is the number's.
  const auto colon = text.find(':');
  if (colon != std::string_view::npos &&
      text.substr(0, colon).find_first_of("<>=!") == std::string_view::npos) {
    auto bench = text.substr(0, colon);
    while (!bench.empty() && is_space(bench.front())) {
      bench.remove_prefix(1);
    }
    while (!bench.empty() && is_space(bench.back())) {
      bench.remove_suffix(1);
    }
    if (bench.empty()) {
      fail("the benchmark before ':' is empty");
    }
    validate_slug(bench, "benchmark name");
    target.bench = std::string(bench);
    text = text.substr(colon + 1);
  }
  std::size_t pos = 0;
  const auto skip_spaces = [&] {
    while (pos < text.size() && is_space(text[pos])) {
      ++pos;
    }
  };

  skip_spaces();
  if (pos == text.size()) {
    fail("it is empty");
  }
  if (!starts_name(text[pos])) {
    fail("the metric name must start with a letter or underscore");
  }
  const std::size_t name_start = pos;
  while (pos < text.size() && continues_name(text[pos])) {
    ++pos;
  }
  target.metric = std::string(text.substr(name_start, pos - name_start));

  skip_spaces();
  const std::size_t op_start = pos;
  while (pos < text.size() && is_operator_char(text[pos])) {
    ++pos;
  }
  const std::string_view op = text.substr(op_start, pos - op_start);
  if (op.empty()) {
    fail(pos == text.size() ? "the comparison operator is missing"
                            : "the metric name may hold only letters, digits, '_' and '.'");
  }
  if (op == "<") {
    target.comparator = Comparator::Less;
  } else if (op == "<=") {
    target.comparator = Comparator::LessEqual;
  } else if (op == ">") {
    target.comparator = Comparator::Greater;
  } else if (op == ">=") {
    target.comparator = Comparator::GreaterEqual;
  } else {
    fail(fmt::format("'{}' is not a supported operator", op));
  }

  skip_spaces();
  if (pos == text.size()) {
    fail("the number is missing");
  }
  std::size_t end = text.size();
  while (end > pos && is_space(text[end - 1])) {
    --end;
  }
  const std::string_view number = text.substr(pos, end - pos);
  // from_chars rejects a leading '+', and accepts no hex here (chars_format::general).
  const auto [rest, error] = std::from_chars(number.data(), number.data() + number.size(), target.value);
  if (error == std::errc::result_out_of_range) {
    fail(fmt::format("'{}' is out of the range of numbers", number));
  }
  if (error != std::errc() || rest != number.data() + number.size()) {
    fail(fmt::format("'{}' is not a number", number));
  }
  if (!std::isfinite(target.value)) {
    fail(fmt::format("'{}' is not a finite number", number));
  }
  target.value += 0.0; // "-0" reads as -0.0; print it as 0
  return target;
}

bool meets(const Target& target, double value)
{
  switch (target.comparator) {
  case Comparator::Less:
    return value < target.value;
  case Comparator::LessEqual:
    return value <= target.value;
  case Comparator::Greater:
    return value > target.value;
  case Comparator::GreaterEqual:
    return value >= target.value;
  }
  return false;
}

std::string_view to_string(Comparator comparator)
{
  switch (comparator) {
  case Comparator::Less:
    return "<";
  case Comparator::LessEqual:
    return "<=";
  case Comparator::Greater:
    return ">";
  case Comparator::GreaterEqual:
    return ">=";
  }
  return "<";
}

std::string to_string(const Target& target)
{
  return fmt::format("{} {} {}", target.metric, to_string(target.comparator), target.value);
}

std::string qualified(const Target& target)
{
  return target.bench.empty() ? to_string(target) : target.bench + ":" + to_string(target);
}

} // namespace ej::core
