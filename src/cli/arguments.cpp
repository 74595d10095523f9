#include "cli/arguments.h"

#include "core/numbering.h"
#include "core/param_range.h"
#include "util/error.h"
#include "util/strings.h"

#include <charconv>

namespace ej::cli {

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

std::filesystem::path command_line_path(std::string_view text)
{
  return std::filesystem::absolute(std::filesystem::path(text)).lexically_normal();
}

std::filesystem::path checked_document_path(const measuring::Workspace& workspace,
                                            const std::filesystem::path& full, std::string_view given,
                                            std::string_view option)
{
  const auto root = std::filesystem::weakly_canonical(workspace.work_tree);
  const auto resolved = std::filesystem::weakly_canonical(full);
  const auto relative = resolved.lexically_relative(root);
  if (relative.empty() || *relative.begin() == ".." || relative.is_absolute()) {
    throw Error("the document path {} is outside the repository {}; give a path inside it with {}", given,
                root.string(), option);
  }
  if (*relative.begin() == ".ej" || *relative.begin() == ".git") {
    throw Error("the document path {} is inside .ej/ or .git/; give another path with {}", given, option);
  }
  if (resolved.extension() == ".svg") {
    throw Error("the document path {} ends in .svg, the name of its chart; give a markdown path with {}",
                given, option);
  }
  return resolved;
}

std::string repository_relative(const measuring::Workspace& workspace, const std::filesystem::path& full)
{
  return full.lexically_relative(std::filesystem::weakly_canonical(workspace.work_tree)).generic_string();
}

std::uint64_t parse_keep_untracked(const std::string& text)
{
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::uint64_t factor = 0;
  if (unit.empty() || unit == "B") {
    factor = 1;
  } else if (unit == "K" || unit == "KiB" || unit == "k") {
    factor = 1024;
  } else if (unit == "M" || unit == "MiB") {
    factor = 1024 * 1024;
  } else if (unit == "G" || unit == "GiB") {
    factor = 1024 * 1024 * 1024;
  }
  constexpr std::uint64_t k_most = 512ull * 1024 * 1024; // a blob is one SQLite value, at most 1 GB
  if (ec != std::errc() || end == text.data() || factor == 0 || value > k_most / factor) {
    throw UsageError("--keep-untracked-up-to takes a size up to 512M, e.g. 200M, 64K or 1048576; not '{}'",
                     text);
  }
  return value * factor;
}

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

std::vector<measuring::ParamChoice> param_choices(const std::vector<std::string>& options)
{
  std::vector<measuring::ParamChoice> choices;
  for (const auto& option : options) {
    const auto equals = option.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == option.size()) {
      throw UsageError("--param '{}' must look like AXIS=V1,V2,...", option);
    }
    choices.push_back({option.substr(0, equals), core::expand_param_values(option.substr(equals + 1))});
  }
  return choices;
}

} // namespace ej::cli
