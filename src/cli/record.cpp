#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/bench_definition.h"
#include "core/numbering.h"
#include "measure/bench_metrics.h"
#include "measuring/workspace.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

// `ej record`: results measured outside ej (another machine, a colleague, history), kept apart
// from what ej measured: such runs are `imported`, with their source, everywhere they appear.
namespace ej::cli {

namespace {

struct RecordOptions {
  std::string attempt;
  std::string bench;
  std::vector<std::string> metrics;
  std::vector<std::string> samples;
  std::string when;
  std::string source;
  std::string label;
};

double parse_value(const std::string& text, const std::string& metric)
{
  double value = 0;
  const auto trimmed = util::trim(text);
  const auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (trimmed.empty() || ec != std::errc() || end != trimmed.data() + trimmed.size() ||
      !std::isfinite(value)) {
    throw UsageError("'{}' is not a finite number (metric {})", text, metric);
  }
  return value;
}

void run_record(const RecordOptions& options)
{
  if (options.metrics.empty() && options.samples.empty()) {
    throw UsageError("nothing to record: give --metric M=VALUE or --samples M=v1,v2,...");
  }
  const int attempt = parse_attempt_number(options.attempt);
  const auto source = checked_text(options.source, "source");
  const auto label = checked_text(options.label, "label");
  std::optional<std::int64_t> when;
  if (!options.when.empty()) {
    when = util::parse_utc(options.when);
    if (!when) {
      throw UsageError("--when '{}' is not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", options.when);
    }
  }
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const bool from_remote = numbers_from_remote(workspace);
  int number = 0;
  journal.write([&](store::Writer& writer) {
    const auto attempt_record = store::find_attempt(journal.db(), attempt);
    if (!attempt_record) {
      throw Error("there is no attempt {}; see 'ej log'", core::number_label(attempt));
    }
    const auto bench = store::find_benchmark(journal.db(), options.bench);
    if (!bench) {
      throw Error("no benchmark named '{}'; register it first (ej bench add) so the figures have units and a "
                  "direction",
                  options.bench);
    }
    const auto specs = measure::metric_specs(core::readable_bench_definition(bench->definition));
    const auto unit_of = [&](const std::string& metric) -> std::string {
      if (metric == "wall_s") {
        return "s";
      }
      for (const auto& spec : specs) {
        if (spec.name == metric) {
          return measure::effective_unit(spec);
        }
      }
      throw UsageError("benchmark {} has no metric '{}'; its metrics are listed by 'ej bench show {}'",
                       options.bench, metric, options.bench);
    };
    store::events::RunImported imported;
    const auto add = [&](const std::string& option, bool many) {
      const auto equals = option.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw UsageError("'{}' must look like METRIC={}", option, many ? "v1,v2,..." : "VALUE");
      }
      const auto metric = option.substr(0, equals);
      const auto unit = unit_of(metric);
      const auto values = many ? util::split(option.substr(equals + 1), ',')
                               : std::vector<std::string>{option.substr(equals + 1)};
      for (const auto& value : values) {
        imported.samples.push_back({metric, "", parse_value(value, metric), unit, core::SampleKind::Sample});
      }
    };
    for (const auto& option : options.metrics) {
      add(option, false);
    }
    for (const auto& option : options.samples) {
      add(option, true);
    }
    imported.number = from_remote ? 0 : store::next_run_number(journal.db());
    imported.bench = bench->name;
    imported.revision = bench->revision;
    imported.bench_revision = store::events::Ref::to(bench->event_id);
    imported.attempt = store::events::Ref::to(attempt_record->id);
    imported.source = source.empty() ? "recorded by hand" : source;
    imported.label = label;
    imported.when_ms = when;
    number = store::number_of_run(journal.db(), writer.append(imported).id);
  });
  fmt::print("run {} recorded for attempt {} (imported, not measured by ej)\n", core::number_label(number),
             core::number_label(attempt));
}

} // namespace

void register_record(CLI::App& app)
{
  auto options = std::make_shared<RecordOptions>();
  auto* record =
      app.add_subcommand("record", "Record results measured outside ej (kept apart as 'imported')");
  record->add_option("attempt", options->attempt, "Attempt number")->required();
  record->add_option("--bench", options->bench, "The registered benchmark the figures belong to")->required();
  record->add_option("--metric", options->metrics, "METRIC=VALUE, one sample (repeatable)");
  record->add_option("--samples", options->samples, "METRIC=v1,v2,... several samples (repeatable)");
  record->add_option("--when", options->when, "When it was measured (YYYY-MM-DD[THH:MM:SS])");
  record->add_option("--source", options->source, "Where the figures come from");
  record->add_option("--label", options->label, "A name for this run");
  record->callback([options] { run_record(*options); });
}

} // namespace ej::cli
