#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "core/bench_definition.h"
#include "core/run_states.h"
#include "evidence/metric_rules.h"
#include "measure/bench_metrics.h"
#include "measure/direction.h"
#include "measure/extract.h"
#include "measure/metric_spec.h"
#include "measuring/workspace.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/spool_file.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

// ej bench test: what metrics would read from a saved output, before registering them.
namespace ej::cli {

namespace {

struct TestOptions {
  std::vector<std::string> metrics;
  std::vector<std::string> units;
  std::vector<std::string> betters;
  std::optional<std::string> bench;
  std::string file;
  bool json = false;
};

struct TestedMetric {
  measure::MetricSpec spec;
  std::string direction; // why it is this way: "inferred from unit tok/s", "as registered"
  bool fresh = false;    // a --metric: inferred as bench add would, then with the unit its values show
};

// Standard input, kept in a temporary file: a piped output of any size is read in bounded memory.
measure::TextSource read_stdin()
{
  auto copy = std::make_shared<util::SpoolFile>();
  std::vector<char> buffer(std::size_t{1} << 16);
  while (copy->ok()) {
    const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      throw Error("cannot read stdin: {}", std::strerror(errno));
    }
    if (n == 0) {
      return measure::TextSource::of_file(copy, copy->fd(), copy->size());
    }
    copy->append(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  throw Error("cannot keep stdin for reading: {}", copy->error());
}

measure::TextSource read_input(const std::string& file)
{
  if (file == "-") {
    return read_stdin();
  }
  auto source = measure::TextSource::open(file);
  if (!source) {
    throw Error(
        "cannot read '{}': there is no such file; give the path of a saved output, or '-' to read stdin",
        file);
  }
  return std::move(*source);
}

// The registered benchmark's metrics (if --bench), then the --metric ones, with --unit and
// --better applied; new metrics get an inferred direction as bench add would give them.
std::vector<TestedMetric> metrics_to_test(const TestOptions& options)
{
  std::vector<measure::MetricSpec> registered;
  if (options.bench) {
    auto journal = open_journal(measuring::locate_workspace());
    const auto bench = store::find_benchmark(journal.db(), *options.bench);
    if (!bench) {
      throw Error("no benchmark named '{}'; see 'ej bench list'", *options.bench);
    }
    registered = measure::metric_specs(core::readable_bench_definition(bench->definition));
  }
  std::vector<measure::MetricSpec> added;
  for (const auto& text : options.metrics) {
    added.push_back(measure::parse_metric_option(text, std::filesystem::current_path()));
    for (const auto& spec : registered) {
      if (spec.name == added.back().name) {
        throw UsageError(
            "the metric '{}' is registered with benchmark {} already; name the new one differently",
            spec.name, *options.bench);
      }
    }
  }
  if (registered.empty() && added.empty()) {
    throw UsageError("nothing to test: give --metric NAME=KIND[:ARG] or --bench NAME");
  }
  std::vector<measure::MetricSpec> all = registered;
  all.insert(all.end(), added.begin(), added.end());
  for (const auto& unit : options.units) {
    measure::apply_unit_option(all, unit);
  }
  std::vector<measure::MetricSpec> fresh(all.begin() + static_cast<std::ptrdiff_t>(registered.size()),
                                         all.end());
  all.resize(registered.size());
  std::vector<std::string> registered_betters;
  std::vector<std::string> fresh_betters;
  for (const auto& better : options.betters) {
    const auto name = better.substr(0, better.find('='));
    const bool is_fresh =
        std::any_of(fresh.begin(), fresh.end(), [&](const auto& s) { return s.name == name; });
    (is_fresh ? fresh_betters : registered_betters).push_back(better);
  }
  for (const auto& better : registered_betters) {
    measure::apply_better_option(all, better);
  }
  std::vector<TestedMetric> out;
  for (const auto& spec : all) {
    const bool given = std::any_of(registered_betters.begin(), registered_betters.end(),
                                   [&](const auto& b) { return b.substr(0, b.find('=')) == spec.name; });
    out.push_back({spec, given ? "given with --better" : "as registered", false});
  }
  const auto inferences = measure::settle_directions(fresh, fresh_betters);
  for (const auto& spec : fresh) {
    std::string direction = "given with --better";
    for (const auto& [name, inferred] : inferences) {
      if (name == spec.name) {
        direction = inferred.reason.empty() ? "the default: neither its unit nor its name says"
                                            : "inferred from " + inferred.reason;
      }
    }
    out.push_back({spec, direction, true});
  }
  return out;
}

std::string_view kind_of(const measure::ExtractedValue& value)
{
  return core::to_string(value.skipped     ? core::SampleKind::Skipped
                         : value.aggregate ? core::SampleKind::Aggregate
                                           : core::SampleKind::Sample);
}

// The one unit settle_units gave the values; values with a unit of their own (a gbench cv row's
// %, a Criterion change's %) say the metric's only when no other value does.
std::string unit_of(const TestedMetric& metric, const std::vector<measure::ExtractedValue>& values)
{
  for (const auto& value : values) {
    if (!value.own_unit) {
      return value.unit;
    }
  }
  return values.empty() ? measure::effective_unit(metric.spec) : values.front().unit;
}

nlohmann::json to_json(const TestedMetric& metric, const std::vector<measure::ExtractedValue>& values)
{
  auto out = nlohmann::json::array();
  for (const auto& value : values) {
    nlohmann::json item{
        {"key", value.key}, {"kind", kind_of(value)}, {"unit", value.unit}, {"note", value.note}};
    item["value"] = value.skipped ? nlohmann::json(nullptr) : nlohmann::json(value.value);
    item["relative_stdev"] =
        value.relative_stdev ? nlohmann::json(*value.relative_stdev) : nlohmann::json(nullptr);
    out.push_back(std::move(item));
  }
  return {{"name", metric.spec.name},        {"spec", measure::to_spec_string(metric.spec)},
          {"unit", unit_of(metric, values)}, {"better", measure::to_string(metric.spec.better)},
          {"direction", metric.direction},   {"values", out}};
}

void print_values(const TestedMetric& metric, const std::vector<measure::ExtractedValue>& values)
{
  const std::string unit = unit_of(metric, values);
  fmt::print("{}  {}\n", paint(metric.spec.name, Colour::Bold), measure::to_spec_string(metric.spec));
  fmt::print("  {} value{}{}, {} is better ({})\n", values.size(), values.size() == 1 ? "" : "s",
             unit.empty() ? ", no unit" : " in " + unit, measure::to_string(metric.spec.better),
             metric.direction);
  std::size_t width = 0;
  for (const auto& value : values) {
    width = std::max(width, value.key.size());
  }
  for (const auto& value : values) {
    std::string shown;
    if (value.skipped) {
      shown = "skipped: " + value.note;
    } else {
      shown = fmt::format("{}{}", value.value, value.unit.empty() ? "" : " " + value.unit);
      if (value.aggregate) {
        shown += "  (aggregate" + (value.note.empty() ? std::string() : " " + value.note) + ")";
      }
      if (value.relative_stdev) {
        shown += fmt::format("  (noise {:.2f}%)", *value.relative_stdev * 100);
      }
    }
    fmt::print("  {:<{}}{}\n", value.key, width == 0 ? 0 : width + 2, shown);
  }
}

// The direction ej run judges the values by once their unit is seen (measure::judged_better), and
// why: a unit the output prints decides what neither the metric's unit nor its name said.
void settle_direction(TestedMetric& metric, const std::string& unit)
{
  auto& spec = metric.spec;
  if (measure::direction_given(spec)) {
    return;
  }
  if (metric.fresh) {
    const auto inferred = measure::infer_better(spec, unit);
    spec.better = inferred.better;
    metric.direction = inferred.reason.empty() ? "the default: neither its unit nor its name says"
                                               : "inferred from " + inferred.reason;
    return;
  }
  if (const auto judged = measure::judged_better(spec, unit); judged != spec.better) {
    metric.direction =
        fmt::format("from its unit {} (registered as {} is better)", unit, measure::to_string(spec.better));
    spec.better = judged;
  }
}

void run_bench_test(const TestOptions& options)
{
  // The metrics, as bench add would register them.
  auto metrics = metrics_to_test(options);
  // The saved output stands for stdout, stderr and any result file a metric reads.
  const auto text = read_input(options.file);
  const measure::ExtractInput input{text, text,
                                    [&text](const measure::MetricSpec&) { return std::optional(text); }};
  // Each metric's values, failing as ej run would on the first metric that reads nothing.
  auto json = nlohmann::json::array();
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const auto values = measure::extract(metrics[i].spec, input);
    settle_direction(metrics[i], unit_of(metrics[i], values));
    if (options.json) {
      json.push_back(to_json(metrics[i], values));
    } else {
      fmt::print("{}", i == 0 ? "" : "\n");
      print_values(metrics[i], values);
    }
  }
  if (options.json) {
    print_json(json);
  }
}

} // namespace

void register_bench_test(CLI::App& bench)
{
  auto options = std::make_shared<TestOptions>();
  auto* test = bench.add_subcommand(
      "test", "Show what metrics read from a saved output: ej bench test --metric SPEC [--unit ...] FILE|-");
  test->add_option("file", options->file,
                   "A saved output ('-' for stdin); it stands for stdout, stderr and the metric's @FILE")
      ->required();
  test->add_option("--metric", options->metrics, "NAME=KIND[:ARG], as for bench add (repeatable)");
  test->add_option("--unit", options->units, "NAME=UNIT (repeatable)");
  test->add_option("--better", options->betters, "NAME=higher|lower (repeatable; default: inferred)");
  test->add_option("--bench", options->bench, "Also test the metrics of this registered benchmark");
  add_json_flag(test, options->json);
  test->callback([options] { run_bench_test(*options); });
}

} // namespace ej::cli
