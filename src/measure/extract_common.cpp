#include "measure/extract_common.h"

#include "util/error.h"
#include "util/strings.h"

#include <charconv>
#include <cmath>

namespace ej::measure::detail {

ExtractedValue make_value(std::string key, double value, std::string unit)
{
  ExtractedValue out;
  out.key = std::move(key);
  out.value = value;
  out.unit = std::move(unit);
  return out;
}

std::string source_name(const MetricSpec& spec)
{
  if (!spec.file.empty()) {
    return "file '" + spec.file + "'";
  }
  return spec.from_stderr ? "stderr" : "stdout";
}

std::string source_text(const MetricSpec& spec, const ExtractInput& input)
{
  if (spec.file.empty()) {
    return std::string(spec.from_stderr ? input.err : input.out);
  }
  std::optional<std::string> content;
  if (input.read_file) {
    content = input.read_file(spec.file);
  }
  if (!content) {
    throw Error(
        "metric '{}': the benchmark did not write '{}' in its working directory: tell the program to "
        "write it there (e.g. --json {} for nvbench, --benchmark_out={} for gbench, --export-json {} for "
        "hyperfine)",
        spec.name, spec.file, spec.file, spec.file, spec.file);
  }
  return std::move(*content);
}

std::string without_digit_groups(std::string_view text)
{
  const auto trimmed = util::trim(text);
  const std::size_t sign = trimmed.starts_with('+') || trimmed.starts_with('-') ? 1 : 0;
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = sign;
  while (i < trimmed.size() && is_digit(trimmed[i])) {
    ++i;
  }
  const std::size_t lead = i - sign;
  if (lead == 0 || lead > 3 || i == trimmed.size() || (trimmed[i] != ',' && trimmed[i] != '_')) {
    return std::string(text);
  }
  const char separator = trimmed[i];
  std::string out(trimmed.substr(0, i));
  while (i < trimmed.size() && trimmed[i] == separator) {
    if (i + 4 > trimmed.size() || !is_digit(trimmed[i + 1]) || !is_digit(trimmed[i + 2]) ||
        !is_digit(trimmed[i + 3]) || (i + 4 < trimmed.size() && is_digit(trimmed[i + 4]))) {
      return std::string(text);
    }
    out += trimmed.substr(i + 1, 3);
    i += 4;
  }
  out += trimmed.substr(i);
  return out;
}

std::optional<double> try_parse_number(std::string_view text)
{
  text = util::trim(text);
  if (text.starts_with('+')) {
    text.remove_prefix(1);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

double parse_number(const MetricSpec& spec, std::string_view text)
{
  const auto value = try_parse_number(text);
  if (!value) {
    double ignored = 0;
    const auto trimmed = util::trim(text);
    const bool out_of_range = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), ignored).ec ==
                              std::errc::result_out_of_range;
    const bool not_finite = out_of_range || util::contains_ci(text, "nan") || util::contains_ci(text, "inf");
    throw Error("metric '{}': '{}' is {}: check what the program printed, or narrow the {} so that it "
                "captures only the number",
                spec.name, util::first_line(text, 80), not_finite ? "not a finite number" : "not a number",
                spec.kind == ExtractorKind::Regex ? "capture group" : "extractor argument");
  }
  return *value;
}

std::string output_tail(std::string_view text, std::size_t max_lines)
{
  std::vector<std::string> all;
  for (auto& line : util::lines(text)) {
    // A progress bar rewrites its line with '\r': keep what a terminal would show.
    while (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    const auto cr = line.rfind('\r');
    all.push_back(cr == std::string::npos ? line : line.substr(cr + 1));
  }
  while (!all.empty() && util::trim(all.back()).empty()) {
    all.pop_back();
  }
  if (all.empty()) {
    return "  (the output was empty)";
  }
  const std::size_t first = all.size() > max_lines ? all.size() - max_lines : 0;
  std::string out;
  for (std::size_t i = first; i < all.size(); ++i) {
    out += out.empty() ? "" : "\n";
    out += "  | " + util::first_line(util::sanitize_utf8(all[i]), 200);
  }
  return out;
}

} // namespace ej::measure::detail
