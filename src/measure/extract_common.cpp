#include "measure/extract_common.h"

#include "util/error.h"
#include "util/strings.h"

#include <charconv>
#include <cmath>
#include <string>

namespace ej::measure::detail {

namespace {

bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

// Length of "63,845" or "1,234,567.5" style grouping at the start of text, 0 when there is none.
std::size_t grouped_length(std::string_view text)
{
  std::size_t i = 0;
  while (i < text.size() && i < 3 && is_digit(text[i])) {
    ++i;
  }
  if (i == 0) {
    return 0;
  }
  std::size_t groups = 0;
  while (i + 3 < text.size() && text[i] == ',' && is_digit(text[i + 1]) && is_digit(text[i + 2]) &&
         is_digit(text[i + 3]) && (i + 4 == text.size() || !is_digit(text[i + 4]))) {
    i += 4;
    ++groups;
  }
  return groups > 0 ? i : 0;
}

} // namespace

ExtractedValue make_value(std::string key, double value, std::string unit)
{
  ExtractedValue out;
  out.key = std::move(key);
  out.value = value;
  out.unit = std::move(unit);
  return out;
}

ValueList within_limit(const MetricSpec& spec, ValueList values)
{
  if (values.dropped() > 0) {
    throw Error("metric '{}': {} held {} values, more than the {} ej keeps of one metric from one repeat; "
                "print fewer (one value per block of iterations, or a summary per repeat), or raise the "
                "limit with EJ_MAX_SAMPLES (each value costs ej 8 bytes while the repeat runs)",
                spec.name, source_name(spec), values.size() + values.dropped(), values.limit());
  }
  return values;
}

std::string source_name(const MetricSpec& spec)
{
  if (!spec.file.empty()) {
    return "file '" + spec.file + "'";
  }
  return spec.from_stderr ? "stderr" : "stdout";
}

TextSource source_of(const MetricSpec& spec, const ExtractInput& input)
{
  if (spec.file.empty()) {
    return spec.from_stderr ? input.err : input.out;
  }
  std::optional<TextSource> file;
  if (input.open_file) {
    file = input.open_file(spec);
  }
  if (!file) {
    throw Error(
        "metric '{}': the benchmark did not write '{}' in its working directory: tell the program to "
        "write it there (e.g. --json {} for nvbench, --benchmark_out={} for gbench, --export-json {} for "
        "hyperfine)",
        spec.name, spec.file, spec.file, spec.file, spec.file);
  }
  return std::move(*file);
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
    throw Error("metric '{}': '{}' is {} (in {}): check what the program printed, or narrow the {} so that "
                "it captures only the number",
                spec.name, util::first_line(text, 80), not_finite ? "not a finite number" : "not a number",
                source_name(spec),
                spec.kind == ExtractorKind::Regex ? "capture group" : "extractor argument");
  }
  return *value;
}

std::string source_tail(const TextSource& source, std::size_t max_lines)
{
  // Lines of a log are short: the last few KiB hold them, whatever the output's size.
  const std::size_t bytes = max_lines * 400;
  auto tail = source.tail(bytes);
  if (source.size() > bytes) {
    const auto newline = tail.find('\n');
    tail.erase(0, newline == std::string::npos ? 0 : newline + 1); // not the start of a cut line
  }
  return output_tail(tail, max_lines);
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

std::vector<ExtractedValue> some_nvbench_states(const MetricSpec& spec, const std::string& bench,
                                                std::vector<ExtractedValue> values)
{
  if (values.empty()) {
    throw Error("metric '{}': the nvbench output in {} holds no states{}", spec.name, source_name(spec),
                bench.empty() ? "" : " for benchmark '" + bench + "'");
  }
  return values;
}

HashSplit split_hash(std::string_view arg)
{
  const auto hash = arg.rfind('#');
  if (hash == std::string_view::npos) {
    return {arg, std::nullopt};
  }
  return {arg.substr(0, hash), arg.substr(hash + 1)};
}

PerSplit split_per(std::string_view arg)
{
  const auto at = arg.rfind(";per=");
  if (at == std::string_view::npos) {
    return {arg, ""};
  }
  return {arg.substr(0, at), util::trim(arg.substr(at + 5))};
}

bool is_blank(char c)
{
  return c == ' ' || c == '\t';
}

// The unit written after a number: glued ("3.2ms", "45%") or the next token ("12.5 ms") unless
// that token is the start of another pair or a remark.
std::string unit_after(std::string_view rest)
{
  std::size_t i = 0;
  const bool glued = !rest.empty() && !is_blank(rest.front());
  while (!glued && i < rest.size() && is_blank(rest[i])) {
    ++i;
  }
  std::size_t end = i;
  while (end < rest.size() && !is_blank(rest[end])) {
    ++end;
  }
  std::string_view token = rest.substr(i, end - i);
  while (!token.empty() && std::string_view(",;").find(token.back()) != std::string_view::npos) {
    token.remove_suffix(1);
  }
  // "avg 12.1 min 10.0 max 14.2": the next statistic's name, not minutes.
  if (token == "min" || token == "max") {
    return "";
  }
  if (token.empty() || token.find_first_of("=:") != std::string_view::npos ||
      std::string_view("([{<#\"'0123456789+-.,;").find(token.front()) != std::string_view::npos) {
    return "";
  }
  return std::string(token);
}

NumberAt number_at(std::string_view text)
{
  const std::size_t sign = text.starts_with('+') || text.starts_with('-') ? 1 : 0;
  std::string ungrouped;
  std::size_t grouped = grouped_length(text.substr(sign));
  std::string_view parsed = text;
  if (grouped > 0) {
    ungrouped = std::string(text.substr(0, sign + grouped));
    std::erase(ungrouped, ',');
    const std::size_t kept = ungrouped.size();
    ungrouped += text.substr(sign + grouped);
    parsed = ungrouped;
    grouped = sign + grouped - kept; // commas removed
  }
  const std::size_t skip = parsed.starts_with('+') ? 1 : 0;
  double value = 0;
  const auto [end, error] = std::from_chars(parsed.data() + skip, parsed.data() + parsed.size(), value);
  if (error != std::errc() && error != std::errc::result_out_of_range) {
    return {std::nullopt, 0};
  }
  const auto length = static_cast<std::size_t>(end - parsed.data()) + grouped;
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    return {std::nullopt, length};
  }
  return {value, length};
}

bool selects_gbench_row(std::string_view name, std::string_view run_name, std::string_view bench)
{
  if (bench.empty() || name == bench || run_name == bench) {
    return true;
  }
  // A family is its name and the arguments after '/': "BM_Sum" is not the family of "BM_Sum2/8".
  const auto family = bench.ends_with('/') ? bench.substr(0, bench.size() - 1) : bench;
  return run_name.size() > family.size() && run_name.starts_with(family) && run_name[family.size()] == '/';
}

std::vector<std::string_view> text_lines(std::string_view text)
{
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n' || text[i] == '\r') {
      if (i > start) {
        out.push_back(text.substr(start, i - start));
      }
      start = i + 1;
    }
  }
  return out;
}

} // namespace ej::measure::detail
