#include "core/references.h"

#include "core/numbering.h"
#include "util/error.h"
#include "util/strings.h"

#include <charconv>

namespace ej::core {

namespace {

// The text after a run prefix, or nullopt without one. "run" alone is a word, not a run.
std::optional<std::string_view> without_run_prefix(std::string_view text)
{
  for (const std::string_view prefix : {"run:", "run", "r"}) {
    if (text.size() > prefix.size() && text.substr(0, prefix.size()) == prefix) {
      return text.substr(prefix.size());
    }
  }
  return std::nullopt;
}

std::optional<int> number_of(std::string_view text)
{
  try {
    return parse_attempt_number(text); // the same digits, '#' and provisional names as attempts
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

} // namespace

int parse_attempt_number(std::string_view text)
{
  if (const auto provisional = core::parse_provisional(text)) {
    return *provisional; // @k3f9qx: not yet numbered by the shared remote (core/numbering.h)
  }
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '#') {
    digits.remove_prefix(1);
  }
  int number = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || number <= 0) {
    throw UsageError(
        "'{}' is not an attempt number; use the number 'ej try' printed, e.g. 12, #12 or @k3f9qx", text);
  }
  return number;
}

std::string checked_text(std::string_view text, std::string_view what, bool allow_empty)
{
  if (!util::is_valid_utf8(text)) {
    throw UsageError("the {} is not valid UTF-8 text; ej stores text as UTF-8: convert it (e.g. with iconv)",
                     what);
  }
  if (!allow_empty && util::trim(text).empty()) {
    throw UsageError("the {} is empty; say what it is", what);
  }
  return std::string(text);
}

std::optional<int> run_reference(std::string_view text)
{
  const auto rest = without_run_prefix(text);
  return rest ? number_of(*rest) : std::nullopt;
}

int parse_run_number(std::string_view text)
{
  if (const auto number = run_reference(text)) {
    return *number;
  }
  if (const auto number = number_of(text)) {
    return *number;
  }
  throw UsageError("'{}' is not a run; name one as 'ej runs' lists them, e.g. 5, r5, run:5 or @k3f9qx", text);
}

Reference parse_reference(std::string_view text)
{
  Reference reference;
  std::string_view rest = text;
  if (const auto after = without_run_prefix(text)) {
    reference.kind = Reference::Kind::Run;
    rest = *after;
  } else if (!rest.empty() && rest.front() == 'a') {
    rest.remove_prefix(1);
  }
  const auto colon = rest.find(':');
  if (colon != std::string_view::npos) {
    for (const auto& pair : util::split(rest.substr(colon + 1), ',')) {
      const auto equals = pair.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw UsageError("'{}': '{}' is not AXIS=VALUE; write e.g. r5:variant=naive", text, pair);
      }
      reference.selector[pair.substr(0, equals)] = pair.substr(equals + 1);
    }
  }
  const auto number = number_of(rest.substr(0, colon));
  if (!number) {
    throw UsageError("'{}' names neither a run (r5, run:5, r5:AXIS=V) nor an attempt (12, #12)", text);
  }
  reference.number = *number;
  return reference;
}

} // namespace ej::core
