// regex: an RE2 pattern with one capture group (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"

#include <re2/re2.h>

#include <array>
#include <memory>

namespace ej::measure {

namespace {

constexpr std::string_view k_example = "--metric 'verify_ms=regex:verify: ([0-9.]+) ms'";

std::unique_ptr<re2::RE2> compile_metric_pattern(std::string_view metric, std::string_view pattern)
{
  re2::RE2::Options options;
  options.set_log_errors(false);
  // Multi-line mode: output is read line by line by people, so ^ and $ mean line ends.
  auto regex = std::make_unique<re2::RE2>("(?m)" + std::string(pattern), options);
  if (!regex->ok()) {
    // The message of the pattern as written, without the (?m) ej added.
    const re2::RE2 as_written(std::string(pattern), options);
    throw UsageError("metric '{}': the pattern '{}' does not compile: {}", metric, pattern,
                     as_written.ok() ? regex->error() : as_written.error());
  }
  if (regex->NumberOfCapturingGroups() != 1) {
    throw UsageError(
        "metric '{}': the pattern '{}' has {} capture groups; it needs exactly one around the number "
        "(use (?:...) for other groups), e.g. 'verify: ([0-9.]+) ms'",
        metric, pattern, regex->NumberOfCapturingGroups());
  }
  return regex;
}

} // namespace

void check_regex(const MetricSpec& spec)
{
  if (spec.arg.empty()) {
    throw UsageError("metric '{}': a regex needs a pattern with one capture group: write e.g. {}", spec.name,
                     k_example);
  }
  compile_metric_pattern(spec.name, spec.arg);
}

namespace {

// Every match, piece by piece. A pattern matches within a piece of whole lines: one spanning
// lines still matches, unless a piece ends between them.
class RegexScanner final : public LineScanner {
public:
  explicit RegexScanner(const MetricSpec& spec)
      : m_spec(spec), m_regex(compile_metric_pattern(spec.name, spec.arg))
  {
  }

  void read(std::string_view text) override
  {
    const re2::StringPiece input(text.data(), text.size());
    std::array<re2::StringPiece, 2> groups;
    std::size_t pos = 0;
    while (pos <= input.size() && m_regex->Match(input, pos, input.size(), re2::RE2::UNANCHORED,
                                                 groups.data(), static_cast<int>(groups.size()))) {
      if (groups[1].data() != nullptr) { // an optional group that took no part yields nothing
        const std::string_view captured(groups[1].data(), groups[1].size());
        // The unit printed after the number, whether the pattern matched it or not ("14.5 ms").
        // Only the next token matters: a bounded look, however long the line.
        const auto after = static_cast<std::size_t>(groups[1].data() - input.data()) + groups[1].size();
        auto rest = text.substr(after, 64);
        rest = rest.substr(0, rest.find_first_of("\r\n"));
        std::string unit = detail::unit_after(rest);
        if (unit != m_known_unit && !parse_unit(unit)) {
          unit.clear();
        } else {
          m_known_unit = unit;
        }
        m_values.add("", detail::parse_number(m_spec, detail::without_digit_groups(captured)), unit);
      }
      const auto end = static_cast<std::size_t>(groups[0].data() - input.data()) + groups[0].size();
      pos = groups[0].empty() ? end + 1 : end; // an empty match must still move on
    }
  }

  ValueList finish_list(const TextSource& output) override
  {
    if (m_values.empty()) {
      throw Error("metric '{}': the pattern '{}' matched nothing in {}; its last lines were:\n{}\n"
                  "Check the pattern against this output (or read stderr with 'regex:stderr:...').",
                  m_spec.name, m_spec.arg, detail::source_name(m_spec), detail::source_tail(output));
    }
    return detail::within_limit(m_spec, std::move(m_values));
  }

private:
  const MetricSpec& m_spec;
  std::unique_ptr<re2::RE2> m_regex;
  std::string m_known_unit; // the last unit text that parse_unit knew
  ValueList m_values{max_values_per_repeat()};
};

} // namespace

std::unique_ptr<LineScanner> scan_regex(const MetricSpec& spec)
{
  return std::make_unique<RegexScanner>(spec);
}

} // namespace ej::measure
