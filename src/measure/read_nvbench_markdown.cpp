// nvbench: NVBench's markdown (what it prints on stdout, and `--md FILE`), keyed as its --json
// (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <algorithm>
#include <array>

namespace ej::measure {

namespace {

// The column each summary tag of --json is printed in.
struct TagColumn {
  std::string_view tag;
  std::string_view column;
};
constexpr std::array<TagColumn, 6> k_tag_columns{{{"nv/cold/time/gpu/mean", "GPU Time"},
                                                  {"nv/cold/time/cpu/mean", "CPU Time"},
                                                  {"nv/batch/time/gpu/mean", "Batch GPU"},
                                                  {"nv/cold/bw/global/bytes_per_second", "GlobalMem BW"},
                                                  {"nv/cold/bw/global/utilization", "BWUtil"},
                                                  {"nv/cold/bw/item_rate", "Elem/s"}}};

// A tag of --json names its column; any other TAG is a column's header as printed.
std::string column_of(std::string_view tag)
{
  for (const auto& entry : k_tag_columns) {
    if (entry.tag == tag) {
      return std::string(entry.column);
    }
  }
  return std::string(tag);
}

using Axes = std::vector<std::pair<std::string, std::string>>;

// "Run:  [3/8] copy [Device=0 Elements=2^20 T=U8]" in the log, and its "Skip: reason" if skipped.
struct LoggedRun {
  std::string bench;
  std::optional<std::string> device;
  Axes axes;
  std::optional<std::string> skip_reason;
};

struct Table {
  std::string device; // "0" of "### [0] NVIDIA A30"
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

struct Bench {
  std::string name;
  std::vector<Table> tables;
};

// "Device=0 Array size=2^26 Mask width=5": names may hold blanks, values do not.
Axes parse_axes(std::string_view text)
{
  Axes axes;
  std::string pending;
  for (const auto& word : util::split(text, ' ')) {
    if (word.empty()) {
      continue;
    }
    const auto equals = word.find('=');
    if (equals == std::string::npos) {
      pending += pending.empty() ? word : " " + word;
      continue;
    }
    const auto name = word.substr(0, equals);
    axes.emplace_back(pending.empty() ? name : pending + " " + name, word.substr(equals + 1));
    pending.clear();
  }
  return axes;
}

std::optional<LoggedRun> parse_run(std::string_view line)
{
  auto rest = util::trim(line.substr(4)); // after "Run:"
  if (rest.starts_with('[') && rest.find(']') != std::string_view::npos &&
      rest.substr(1, rest.find(']') - 1).find_first_not_of("0123456789/") == std::string_view::npos) {
    rest = util::trim(rest.substr(rest.find(']') + 1)); // newer nvbench's "[3/8]" progress
  }
  const auto open = rest.rfind(" [");
  if (open == std::string_view::npos || !rest.ends_with(']')) {
    return std::nullopt;
  }
  LoggedRun run{std::string(rest.substr(0, open)), std::nullopt, {}, std::nullopt};
  for (auto& [name, value] : parse_axes(rest.substr(open + 2, rest.size() - open - 3))) {
    if (name == "Device") {
      run.device = value;
    } else {
      run.axes.emplace_back(std::move(name), std::move(value));
    }
  }
  return run;
}

std::vector<std::string> cells_of(std::string_view line)
{
  auto cells = util::split(util::trim(line), '|');
  std::vector<std::string> out;
  for (std::size_t i = 1; i + 1 < cells.size(); ++i) { // the pieces outside the outer bars are empty
    out.emplace_back(util::trim(cells[i]));
  }
  return out;
}

struct Document {
  std::vector<LoggedRun> runs;
  std::vector<Bench> benches;
};

Document parse_document(const MetricSpec& spec, std::string_view text)
{
  Document document;
  bool in_results = false;
  std::string device;
  Table* table = nullptr;
  for (const auto line : detail::text_lines(text)) {
    if (line.starts_with("Run:")) {
      if (auto run = parse_run(line)) {
        document.runs.push_back(std::move(*run));
      }
    } else if (line.starts_with("Skip:") && !document.runs.empty()) {
      document.runs.back().skip_reason = std::string(util::trim(line.substr(5)));
    } else if (util::trim(line) == "# Benchmark Results") {
      in_results = true;
    } else if (in_results && line.starts_with("## ")) {
      document.benches.push_back(Bench{std::string(util::trim(line.substr(3))), {}});
      table = nullptr;
    } else if (in_results && line.starts_with("### [") && line.find(']') != std::string_view::npos) {
      device = std::string(line.substr(5, line.find(']') - 5));
      table = nullptr;
    } else if (in_results && line.starts_with('|') && !document.benches.empty()) {
      if (table == nullptr) {
        document.benches.back().tables.push_back(Table{device, cells_of(line), {}});
        table = &document.benches.back().tables.back();
      } else if (line.find_first_not_of("|-: ") != std::string_view::npos) { // not the |---| rule
        table->rows.push_back(cells_of(line));
        if (table->rows.back().size() != table->headers.size()) {
          throw Error(
              "metric '{}': a row of NVBench's table for '{}' in {} has {} cells where its header has "
              "{} ({}): was the output cut short?",
              spec.name, document.benches.back().name, detail::source_name(spec), table->rows.back().size(),
              table->headers.size(), util::first_line(line, 80));
        }
      }
    } else if (!line.starts_with('|')) {
      table = nullptr;
    }
  }
  return document;
}

// "2^20 = 1048576" is keyed "2^20", as --json states are.
std::string axis_text(const std::string& cell)
{
  const auto equals = cell.find(" = ");
  return cell.starts_with("2^") && equals != std::string::npos ? cell.substr(0, equals) : cell;
}

std::string state_key(const std::string& bench, const std::optional<std::string>& device, const Axes& axes)
{
  std::vector<std::string> parts;
  if (device) {
    parts.push_back("Device=" + *device);
  }
  for (const auto& [name, value] : axes) {
    parts.push_back(name + "=" + value);
  }
  return parts.empty() ? bench : bench + "[" + util::join(parts, ",") + "]";
}

// The axis columns of a table: the axes its log names, else the columns before the first measurement.
std::vector<std::size_t> axis_columns(const Table& table, const std::vector<LoggedRun*>& runs)
{
  std::vector<std::size_t> out;
  if (!runs.empty()) {
    for (const auto& axis : runs.front()->axes) {
      const auto at = std::find(table.headers.begin(), table.headers.end(), axis.first);
      if (at != table.headers.end()) {
        out.push_back(static_cast<std::size_t>(at - table.headers.begin()));
      }
    }
    return out;
  }
  for (std::size_t i = 0; i < table.headers.size(); ++i) {
    if (table.headers[i] == "Samples" || table.headers[i].ends_with("Time")) {
      break;
    }
    out.push_back(i);
  }
  return out;
}

// "7.427 ms", "90.545 GB/s", "9.70%", and "4.421M" (elements per second, SI-prefixed).
ExtractedValue figure_value(const MetricSpec& spec, std::string key, const std::string& cell,
                            const std::string& column)
{
  const auto number = detail::number_at(cell);
  if (number.length == 0 || !number.value) {
    throw Error("metric '{}': NVBench's '{}' of {} in {} is '{}', not a finite number", spec.name, column,
                key, detail::source_name(spec), cell);
  }
  double value = *number.value;
  std::string unit(util::trim(std::string_view(cell).substr(number.length)));
  constexpr std::string_view k_prefixes = "KMGT";
  if (unit.size() == 1 && k_prefixes.find(unit[0]) != std::string_view::npos) {
    for (std::size_t i = 0; i <= k_prefixes.find(unit[0]); ++i) {
      value *= 1000;
    }
    unit = column == "Elem/s" ? "items/s" : "";
  } else if (unit.empty() && column == "Elem/s") {
    unit = "items/s";
  }
  return detail::make_value(std::move(key), value, unit);
}

// "2.90%" as 0.029; nvbench prints "inf%" when it has no noise figure.
std::optional<double> noise_of(const std::string& cell)
{
  if (!cell.ends_with('%')) {
    return std::nullopt;
  }
  const auto number = detail::try_parse_number(cell.substr(0, cell.size() - 1));
  return number ? std::optional<double>(*number / 100) : std::nullopt;
}

std::vector<LoggedRun*> runs_of(Document& document, const std::string& bench)
{
  std::vector<LoggedRun*> out;
  for (auto& run : document.runs) {
    if (run.bench == bench) {
      out.push_back(&run);
    }
  }
  return out;
}

} // namespace

std::vector<ExtractedValue> read_nvbench_markdown(const MetricSpec& spec, std::string_view text)
{
  auto document = parse_document(spec, text);
  const auto slash = spec.arg.find('/');
  const std::string wanted = spec.arg.substr(0, slash);
  const std::string column = column_of(slash == std::string::npos ? std::string_view("nv/cold/time/gpu/mean")
                                                                  : spec.arg.substr(slash + 1));

  // Benchmarks whose every state was skipped have a log but no table.
  std::vector<std::string> names;
  for (const auto& bench : document.benches) {
    names.push_back(bench.name);
  }
  for (const auto& run : document.runs) {
    if (std::find(names.begin(), names.end(), run.bench) == names.end()) {
      names.push_back(run.bench);
      document.benches.push_back(Bench{run.bench, {}});
    }
  }
  if (names.empty()) {
    throw Error("metric '{}': {} holds no NVBench results ('# Benchmark Results' and its tables); its last "
                "lines were:\n{}",
                spec.name, detail::source_name(spec), detail::output_tail(text));
  }
  if (!wanted.empty() && std::find(names.begin(), names.end(), wanted) == names.end()) {
    throw Error("metric '{}': the nvbench output in {} has no benchmark '{}'; it has: {}", spec.name,
                detail::source_name(spec), wanted, util::join(names, ", "));
  }

  std::vector<ExtractedValue> values;
  std::vector<std::string> headers_seen;
  bool found_column = false;
  for (const auto& bench : document.benches) {
    if (!wanted.empty() && bench.name != wanted) {
      continue;
    }
    const auto runs = runs_of(document, bench.name);
    for (const auto& table : bench.tables) {
      const auto at = std::find(table.headers.begin(), table.headers.end(), column);
      if (at == table.headers.end()) {
        headers_seen = table.headers;
        continue;
      }
      found_column = true;
      const auto index = static_cast<std::size_t>(at - table.headers.begin());
      const bool has_noise = index + 1 < table.headers.size() && table.headers[index + 1] == "Noise";
      const auto axes = axis_columns(table, runs);
      for (const auto& row : table.rows) {
        Axes key_axes;
        for (const auto axis : axes) {
          key_axes.emplace_back(table.headers[axis], axis_text(row[axis]));
        }
        auto value = figure_value(spec,
                                  state_key(bench.name,
                                            table.device.empty() ? std::nullopt : std::optional(table.device),
                                            key_axes),
                                  row[index], column);
        if (has_noise) {
          value.relative_stdev = noise_of(row[index + 1]);
        }
        values.push_back(std::move(value));
      }
    }
    // Skipped states are not in the tables: the log names them.
    for (const auto* run : runs) {
      if (run->skip_reason) {
        auto value = detail::make_value(state_key(bench.name, run->device, run->axes), 0, "");
        value.skipped = true;
        value.note = *run->skip_reason;
        values.push_back(std::move(value));
      }
    }
  }
  if (!found_column && !headers_seen.empty()) {
    throw Error("metric '{}': NVBench's tables in {} have no column '{}'; they have: {}", spec.name,
                detail::source_name(spec), column, util::join(headers_seen, ", "));
  }
  return detail::some_nvbench_states(spec, wanted, std::move(values));
}

} // namespace ej::measure
