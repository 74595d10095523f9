// nccl: the table every nccl-tests `*_perf` binary prints (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <algorithm>
#include <array>

namespace ej::measure {

namespace {

constexpr std::array<std::string_view, 4> k_fields{"time", "algbw", "busbw", "avg_busbw"};

struct NcclArg {
  std::string place; // "out-of-place", "in-place" or "" for both
  std::string field = "busbw";
};

NcclArg parse_nccl_arg(std::string_view arg)
{
  NcclArg out;
  const auto slash = arg.find('/');
  if (slash != std::string_view::npos) {
    out.place = std::string(arg.substr(0, slash));
    arg = arg.substr(slash + 1);
  }
  if (!arg.empty()) {
    out.field = std::string(arg);
  }
  return out;
}

std::vector<std::string> tokens(std::string_view line)
{
  std::vector<std::string> out;
  std::string token;
  for (char c : line) {
    if (c == ' ' || c == '\t') {
      if (!token.empty()) {
        out.push_back(std::move(token));
        token.clear();
      }
    } else {
      token += c;
    }
  }
  if (!token.empty()) {
    out.push_back(std::move(token));
  }
  return out;
}

// Column indexes of time, algbw and busbw: out-of-place first, in-place second.
struct Columns {
  std::size_t count = 0;
  std::array<std::array<std::size_t, 3>, 2> at{};
};

std::optional<Columns> header_columns(std::string_view line)
{
  auto names = tokens(line.substr(1)); // after '#'
  if (names.empty() || names.front() != "size") {
    return std::nullopt;
  }
  Columns columns;
  columns.count = names.size();
  std::array<int, 3> seen{};
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t f = 0; f < 3; ++f) {
      if (names[i] == k_fields[f] && seen[f] < 2) {
        columns.at[static_cast<std::size_t>(seen[f]++)][f] = i;
      }
    }
  }
  if (seen[0] != 2 || seen[1] != 2 || seen[2] != 2) {
    return std::nullopt;
  }
  return columns;
}

std::string with_test(const std::string& test, const std::string& key)
{
  if (test.empty()) {
    return key;
  }
  return key.empty() ? test : test + "[" + key + "]";
}

} // namespace

void check_nccl(const MetricSpec& spec)
{
  const auto arg = parse_nccl_arg(spec.arg);
  if (!arg.place.empty() && arg.place != "out-of-place" && arg.place != "in-place") {
    throw UsageError(
        "metric '{}': nccl reads 'out-of-place/FIELD' or 'in-place/FIELD', not '{}/': write e.g. "
        "nccl:in-place/busbw",
        spec.name, arg.place);
  }
  if (std::find(k_fields.begin(), k_fields.end(), arg.field) == k_fields.end()) {
    throw UsageError("metric '{}': nccl has no field '{}': use time, algbw, busbw or avg_busbw", spec.name,
                     arg.field);
  }
  if (arg.field == "avg_busbw" && !arg.place.empty()) {
    throw UsageError("metric '{}': avg_busbw is one figure for both places: write nccl:avg_busbw", spec.name);
  }
}

std::string unit_of_nccl(const MetricSpec& spec)
{
  return parse_nccl_arg(spec.arg).field == "time" ? "us" : "GB/s";
}

std::vector<ExtractedValue> read_nccl(const MetricSpec& spec, std::string_view text)
{
  const auto arg = parse_nccl_arg(spec.arg);
  const std::size_t field =
      static_cast<std::size_t>(std::find(k_fields.begin(), k_fields.end(), arg.field) - k_fields.begin());
  const std::string unit = field == 0 ? "us" : "GB/s";
  std::vector<ExtractedValue> values;
  std::optional<Columns> columns;
  std::string test; // named by "# Collective test starting: NAME" when several run in one log
  for (const auto line : detail::text_lines(text)) {
    const auto trimmed = util::trim(line);
    if (trimmed.starts_with("# Collective test starting:")) {
      test = std::string(util::trim(trimmed.substr(27)));
      continue;
    }
    if (trimmed.starts_with("#")) {
      if (auto found = header_columns(trimmed)) {
        columns = found;
      } else if (trimmed.starts_with("# Avg bus bandwidth") && field == 3) {
        const auto colon = trimmed.find(':');
        const auto number = colon == std::string_view::npos ? std::string_view() : trimmed.substr(colon + 1);
        values.push_back(detail::make_value(with_test(test, ""), detail::parse_number(spec, number), unit));
      }
      continue;
    }
    if (!columns || trimmed.empty() || trimmed.front() < '0' || trimmed.front() > '9') {
      continue; // NCCL INFO lines, warnings, a prompt
    }
    const auto cells = tokens(trimmed);
    if (cells.size() != columns->count) {
      throw Error(
          "metric '{}': the nccl-tests row '{}' in {} has {} columns where the header names {}: was the "
          "output cut short or interleaved with other output?",
          spec.name, util::first_line(std::string(trimmed), 160), detail::source_name(spec), cells.size(),
          columns->count);
    }
    if (field == 3) {
      continue;
    }
    for (std::size_t place = 0; place < 2; ++place) {
      const std::string_view name = place == 0 ? "out-of-place" : "in-place";
      if (!arg.place.empty() && arg.place != name) {
        continue;
      }
      const auto& cell = cells[columns->at[place][field]];
      const std::string key = "size=" + cells[0] + "," + std::string(name);
      values.push_back(detail::make_value(with_test(test, key), detail::parse_number(spec, cell), unit));
    }
  }
  if (values.empty()) {
    throw Error(
        "metric '{}': {} holds no nccl-tests {} (a '#  size  count  type ...' header and its rows{}); "
        "its last lines were:\n{}",
        spec.name, detail::source_name(spec), field == 3 ? "average" : "table",
        field == 3 ? ", then '# Avg bus bandwidth : N'" : "", detail::output_tail(text));
  }
  return values;
}

} // namespace ej::measure
