#include "cli/commands.h"
#include "cli/output.h"
#include "core/bench_definition.h"
#include "core/param_range.h"
#include "core/redact.h"
#include "core/slug.h"
#include "evidence/bench_json.h"
#include "evidence/calibration.h"
#include "measure/bench_metrics.h"
#include "measure/direction.h"
#include "measure/metric_spec.h"
#include "measure/readers.h"
#include "measure/result_files.h"
#include "measuring/workspace.h"
#include "remote/host_registry.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <filesystem>

// The benchmark registry: bench add, edit, list, show.
namespace ej::cli {

namespace {

// Options shared by add and edit; for edit, only what was given changes.
struct BenchOptions {
  std::string name;
  std::vector<std::string> argv;
  std::optional<std::string> shell;
  std::optional<std::string> cwd;
  std::vector<std::string> env;
  std::vector<std::string> params;
  std::optional<int> warmup;
  std::optional<int> repeat;
  std::optional<int> min_repeats;
  std::optional<int> max_repeats;
  std::optional<double> max_noise;
  std::optional<double> budget;
  std::optional<double> timeout;
  std::vector<std::string> metrics;
  std::vector<std::string> units;
  std::vector<std::string> betters;
  std::optional<std::string> primary;
  std::optional<double> min_effect;
  std::optional<std::string> build;
  std::optional<std::string> host;
  std::optional<double> clock_drop;
  std::optional<bool> exclude_throttled;
  std::optional<bool> ci;
  std::optional<std::string> check;
  std::optional<int> check_every;
  std::optional<std::string> same_output;
  std::optional<double> tolerance;
  std::vector<std::string> floors;
  std::optional<bool> check_times;
};

std::pair<std::string, std::string> split_assignment(const std::string& text, const char* option)
{
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw UsageError("{} '{}' must look like NAME=VALUE", option, text);
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

std::vector<core::ParamAxis> parse_params(const std::vector<std::string>& options)
{
  std::vector<core::ParamAxis> axes;
  for (const auto& option : options) {
    auto [name, list] = split_assignment(option, "--param");
    core::ParamAxis axis{name, core::expand_param_values(list)};
    for (const auto& value : axis.values) {
      if (value.empty()) {
        throw UsageError("--param '{}' has an empty value; write AXIS=V1,V2,...", option);
      }
    }
    for (const auto& existing : axes) {
      if (existing.name == axis.name) {
        throw UsageError("--param {} is given twice; list all its values once: {}=V1,V2,...", name, name);
      }
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

// Builds the metric list from --metric/--unit/--better; the extractor module validates each spec
// (a regex that does not compile is refused here, not at run time). The direction of a new
// metric that --better leaves out is inferred and stored; `inferred` says how, for the user.
std::vector<measure::MetricSpec> parse_metrics(const BenchOptions& options,
                                               const core::BenchDefinition& previous,
                                               std::vector<std::string>& inferred,
                                               const std::filesystem::path& cwd)
{
  std::vector<measure::MetricSpec> specs;
  if (!options.metrics.empty()) {
    for (const auto& text : options.metrics) {
      specs.push_back(measure::parse_metric_option(text, cwd));
    }
  } else {
    specs = measure::metric_specs(previous);
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (std::size_t j = i + 1; j < specs.size(); ++j) {
      if (specs[i].name == specs[j].name) {
        throw UsageError("the metric '{}' is defined twice", specs[i].name);
      }
    }
    if (specs[i].name == "wall_s") {
      throw UsageError("'wall_s' is recorded for every benchmark already; name the metric differently");
    }
  }
  for (const auto& unit : options.units) {
    measure::apply_unit_option(specs, unit);
  }
  if (options.metrics.empty()) {
    for (const auto& better : options.betters) {
      measure::apply_better_option(specs, better);
    }
  } else {
    for (const auto& [name, inference] : measure::settle_directions(specs, options.betters)) {
      inferred.push_back(measure::describe_inference(name, inference));
    }
  }
  return specs;
}

void require_inside_repository(const std::string& path, const std::string& what)
{
  const auto normal = std::filesystem::path(path).lexically_normal();
  if (normal.is_absolute() || (!normal.empty() && *normal.begin() == "..")) {
    throw UsageError("{} '{}' leaves the repository: give a path relative to the repository root (for --cwd) "
                     "or to the benchmark's working directory (for @FILE), without '..'",
                     what, path);
  }
}

// A definition is stored in the journal (and shared by ej sync): a secret must not be. The way
// to give one to a benchmark is ej's own environment, which the benchmark inherits.
void refuse_secret_variable(const std::string& name, const std::string& value)
{
  const bool secret_value =
      core::redact_url_credentials(value) != value || core::redact_token_shapes(value) != value;
  if ((core::secret_name(name) && !value.empty() && value.front() != '$') || secret_value) {
    throw UsageError("--env {} {}, and a benchmark's definition is stored in the journal; export it in the "
                     "shell that runs ej (the benchmark inherits ej's environment), or pass it with "
                     "'ej run --env {}=...', which is redacted in the run's record",
                     name, secret_value ? "holds a credential" : "looks like a secret", name);
  }
}

// The same for the command: --password=X in the argv would be stored and shown as it is.
void refuse_secret_arguments(const core::BenchDefinition& d)
{
  const auto words = d.shell.empty() ? d.argv : util::split(d.shell, ' ');
  if (const auto problem = core::secret_argument(words)) {
    throw UsageError(
        "{} of the benchmark's command, and a benchmark's definition is stored in the journal; "
        "export the secret in the shell that runs ej and let the benchmark read it from its "
        "environment, or refer to it in a --shell command: --shell './bench --token \"$HF_TOKEN\"'",
        *problem);
  }
}

// A command the definition keeps (--build, --check): UTF-8, and no secret written out, since the
// journal stores it; `example` shows the option with the secret exported instead.
void check_stored_command(const std::string& command, std::string_view option, std::string_view example)
{
  if (!util::is_valid_utf8(command)) {
    throw UsageError("{} takes UTF-8 text", option);
  }
  if (const auto problem = core::secret_argument(util::split(command, ' '))) {
    throw UsageError("{} of the {} command, and a definition is stored in the journal; export the secret "
                     "and refer to it: {}",
                     *problem, option, example);
  }
}

// --check, --same-output, --tolerance and --floor (docs/benchmarks.md, "Checks"), once the metrics
// are known: each names a metric the benchmark has.
void apply_checks(const BenchOptions& options, core::BenchDefinition& d)
{
  const auto has_metric = [&d](const std::string& name) {
    return name == "wall_s" || std::any_of(d.metrics.begin(), d.metrics.end(),
                                           [&name](const auto& metric) { return metric.name == name; });
  };
  d.check = options.check.value_or(d.check);
  d.check_times = options.check_times.value_or(d.check_times);
  d.check_every = options.check_every.value_or(d.check_every);
  if (d.check_every < 1) {
    throw UsageError("--check-every takes a positive count of repeats, e.g. --check-every 5");
  }
  if (options.check_every && d.check.empty()) {
    throw UsageError("--check-every needs a check: --check './verify out.bin' --check-every {}",
                     d.check_every);
  }
  check_stored_command(d.check, "--check", "--check './verify --token \"$TOKEN\"'");
  if (options.same_output) {
    d.same_output =
        options.same_output->empty() ? core::SameOutput{} : core::parse_same_output(*options.same_output);
  }
  auto& same = d.same_output;
  if (options.tolerance) {
    if (same.kind != core::SameOutput::Kind::Metric) {
      throw UsageError("--tolerance applies to --same-output METRIC (a value compared within PCT%), e.g. "
                       "--same-output checksum --tolerance 0.01");
    }
    if (*options.tolerance < 0) {
      throw UsageError("--tolerance cannot be negative");
    }
    same.tolerance_pct = *options.tolerance;
  }
  if (same.kind == core::SameOutput::Kind::File) {
    require_inside_repository(same.name, "--same-output @FILE");
    if (measure::is_glob(same.name)) {
      throw UsageError("--same-output @{} is a pattern; name the one file the benchmark writes", same.name);
    }
  }
  if (same.kind == core::SameOutput::Kind::Metric && (same.name == "wall_s" || !has_metric(same.name))) {
    throw UsageError(
        "--same-output '{}' is neither stdout, @FILE nor one of the benchmark's metrics (wall_s is "
        "not an output)",
        same.name);
  }
  if (!options.floors.empty()) {
    d.floors.clear();
    for (const auto& text : options.floors) {
      if (text.empty()) {
        continue; // --floor '' removes them
      }
      d.floors.push_back(core::parse_floor(text));
    }
  }
  for (const auto& floor : d.floors) {
    if (!has_metric(floor.metric)) {
      throw UsageError("--floor {}: '{}' is not one of the benchmark's metrics (or wall_s)", floor.metric,
                       floor.metric);
    }
  }
}

void apply_options(const BenchOptions& options, core::BenchDefinition& d, std::vector<std::string>& inferred,
                   const std::filesystem::path& work_tree)
{
  if (!options.argv.empty()) {
    d.argv = options.argv;
    d.shell.clear();
  }
  if (options.shell) {
    d.shell = *options.shell;
    d.argv.clear();
  }
  if (!options.argv.empty() && options.shell) {
    throw UsageError("give either a command after -- or --shell \"STRING\", not both");
  }
  if (options.cwd) {
    d.cwd = *options.cwd;
  }
  if (!options.env.empty()) {
    d.env.clear();
    for (const auto& entry : options.env) {
      d.env.push_back(split_assignment(entry, "--env"));
      refuse_secret_variable(d.env.back().first, d.env.back().second);
    }
  }
  if (!options.params.empty()) {
    d.params = parse_params(options.params);
  }
  auto& p = d.policy;
  p.warmup = options.warmup.value_or(p.warmup);
  if (options.repeat) {
    p.repeat = *options.repeat;
    p.adaptive = false;
  }
  if (options.min_repeats || options.max_repeats || options.max_noise || options.budget) {
    p.adaptive = true;
    p.min_repeats = options.min_repeats.value_or(p.min_repeats);
    p.max_repeats = options.max_repeats.value_or(p.max_repeats);
    p.max_noise_pct = options.max_noise.value_or(p.max_noise_pct);
    p.budget_s = options.budget.value_or(p.budget_s);
  }
  if (options.repeat && p.adaptive && (options.min_repeats || options.max_repeats)) {
    throw UsageError("--repeat N fixes the count; --min-repeats/--max-repeats make it adaptive: choose one");
  }
  if (p.warmup < 0 || p.repeat < 1 || p.min_repeats < 1 || p.max_repeats < p.min_repeats) {
    throw UsageError("repeat counts must be positive with --min-repeats <= --max-repeats (warmup may be 0)");
  }
  d.timeout_s = options.timeout.value_or(d.timeout_s);
  if (d.timeout_s < 0 || p.budget_s < 0 || p.max_noise_pct < 0) {
    throw UsageError("--timeout, --budget and --max-noise cannot be negative");
  }
  d.metrics = parse_metrics(options, d, inferred, work_tree / d.cwd);
  d.metrics_damage.clear();
  // ej deletes a metric's result file before each repeat and runs the benchmark in --cwd: both
  // must stay inside the repository.
  require_inside_repository(d.cwd, "--cwd");
  for (const auto& metric : d.metrics) {
    require_inside_repository(metric.file, "the @FILE of metric " + metric.name);
  }
  if (options.primary) {
    d.primary = *options.primary;
  }
  if (d.primary.empty() || (options.metrics.size() > 0 && !options.primary)) {
    d.primary = d.metrics.empty() ? "wall_s" : d.metrics.front().name;
  }
  bool known = d.primary == "wall_s";
  for (const auto& metric : d.metrics) {
    known = known || metric.name == d.primary;
  }
  if (!known) {
    throw UsageError("--primary '{}' is not one of the benchmark's metrics (or wall_s)", d.primary);
  }
  d.min_effect_pct = options.min_effect.value_or(d.min_effect_pct);
  d.build = options.build.value_or(d.build);
  d.host = options.host.value_or(d.host);
  d.clock_drop_pct = options.clock_drop.value_or(d.clock_drop_pct);
  if (d.clock_drop_pct <= 0 || d.clock_drop_pct >= 100) {
    throw UsageError("--clock-drop takes a percentage between 0 and 100");
  }
  d.exclude_throttled = options.exclude_throttled.value_or(d.exclude_throttled);
  d.ci = options.ci.value_or(d.ci);
  if (d.host == "local") {
    d.host.clear();
  }
  if (d.host.rfind("ssh:", 0) == 0) {
    remote::ssh_destination(d.host); // refuses "ssh:" and "ssh:-oProxyCommand=..."
  } else if (!d.host.empty()) {
    core::validate_slug(d.host, "host name");
  }
  check_stored_command(d.build, "--build", "--build 'make TOKEN=\"$TOKEN\"'");
  apply_checks(options, d);
  if (d.argv.empty() && d.shell.empty()) {
    throw UsageError(
        "no command: give it after --, e.g. ej bench add NAME -- ./bench --size 4096, or use --shell");
  }
  if (!options.argv.empty() || options.shell) {
    refuse_secret_arguments(d);
  }
  // Only argv keeps bytes that are not UTF-8 ({"hex": ...}); elsewhere they would become U+FFFD.
  bool utf8 = util::is_valid_utf8(d.shell) && util::is_valid_utf8(d.cwd);
  for (const auto& [key, value] : d.env) {
    utf8 = utf8 && util::is_valid_utf8(key) && util::is_valid_utf8(value);
  }
  if (!utf8) {
    throw UsageError("--shell, --cwd and --env take UTF-8 text; give bytes that are not UTF-8 as an argument "
                     "after -- (they reach the benchmark byte for byte), e.g. -- sh -c '...' sh ARG");
  }
}

// A min effect smaller than what the newest calibration says a verdict could see is a promise the
// measurements cannot keep: say so, with what would keep it.
void warn_below_detectable(store::Journal& journal, const std::string& bench, int revision, double min_effect,
                           int repeats)
{
  const auto calibration = evidence::latest_calibration(journal.db(), bench, "", revision);
  if (!calibration || !calibration->relative || repeats < 1) {
    return;
  }
  const double sequential = calibration->detectable_sequential(static_cast<std::size_t>(repeats));
  if (min_effect >= sequential) {
    return;
  }
  fmt::print(stderr,
             "ej: warning: --min-effect {:g}% is below what {} can detect here at {} repeats a side ({}, "
             "calibrated {}); give more repeats, or compare with 'ej run {} --against REF' ({} at 20 "
             "rounds)\n",
             min_effect, bench, repeats, calibration->amount(sequential),
             util::format_date(calibration->time_ms), bench,
             calibration->amount(calibration->detectable_interleaved(20)));
}

void run_bench_add(const BenchOptions& options, bool edit)
{
  core::validate_slug(options.name, "benchmark name");
  if (!edit && options.name == "withdraw") {
    throw UsageError("'withdraw' cannot name a benchmark: 'ej run withdraw RUN' withdraws a run; choose "
                     "another name");
  }
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  int revision = 1;
  std::vector<std::string> inferred;
  std::vector<std::string> damage;
  int repeats = 0;
  journal.write([&](store::Writer& writer) {
    inferred.clear(); // a write that is retried runs this again
    const auto existing = store::find_benchmark(journal.db(), options.name);
    core::BenchDefinition definition;
    if (edit) {
      if (!existing) {
        throw Error("no benchmark named '{}'; see 'ej bench list'", options.name);
      }
      // A damaged revision is repaired by editing it: its bad settings take their defaults.
      damage.clear();
      definition = core::bench_definition_from_json(existing->definition, damage);
      revision = existing->revision + 1;
    } else if (existing) {
      throw Error("a benchmark named '{}' exists; change it with 'ej bench edit {} ...'", options.name,
                  options.name);
    }
    apply_options(options, definition, inferred, workspace.work_tree);
    if (edit && core::to_json(definition) == existing->definition) {
      throw UsageError("nothing changed: give the options to change");
    }
    writer.append(store::events::BenchRevision{edit, options.name, revision, core::to_json(definition)});
    repeats = definition.policy.adaptive ? definition.policy.max_repeats : definition.policy.repeat;
  });
  fmt::print("{} benchmark {} (revision {})\n", edit ? "changed" : "registered", options.name, revision);
  for (const auto& problem : damage) {
    fmt::print("  revision {} was damaged: {}; the default is kept unless given\n", revision - 1, problem);
  }
  for (const auto& line : inferred) {
    fmt::print("  {}\n", line);
  }
  if (options.min_effect && *options.min_effect > 0) {
    warn_below_detectable(journal, options.name, revision, *options.min_effect, repeats);
  }
}

// The command as shown: a definition is stored byte for byte, its control characters are shown.
std::string command_text(const core::BenchDefinition& d)
{
  if (!d.shell.empty()) {
    return util::visible_controls("sh -c " + d.shell);
  }
  return util::visible_controls(util::join(d.argv, " "));
}

void print_definition(const core::BenchRevision& bench)
{
  std::vector<std::string> damage;
  const auto d = core::bench_definition_from_json(bench.definition, damage);
  fmt::print("{} (revision {}, {})\n", paint(bench.name, Colour::Bold), bench.revision,
             util::format_utc(bench.created_ms));
  for (const auto& problem : damage) {
    fmt::print("  damaged:  {}; repair with 'ej bench edit {}'\n", problem, bench.name);
  }
  fmt::print("  command:  {}\n", command_text(d));
  if (!d.cwd.empty()) {
    fmt::print("  cwd:      {}\n", d.cwd);
  }
  for (const auto& [key, value] : d.env) {
    fmt::print("  env:      {}={}\n", key, value);
  }
  for (const auto& axis : d.params) {
    fmt::print("  param:    {}={}\n", axis.name, util::join(axis.values, ","));
  }
  const auto& p = d.policy;
  if (p.adaptive) {
    fmt::print("  repeats:  {} warmup, {}..{} until noise < {}%{}\n", p.warmup, p.min_repeats, p.max_repeats,
               p.max_noise_pct, p.budget_s > 0 ? fmt::format(", budget {} s", p.budget_s) : "");
  } else {
    fmt::print("  repeats:  {} warmup, {}\n", p.warmup, p.repeat);
  }
  if (d.timeout_s > 0) {
    fmt::print("  timeout:  {} s per repeat\n", d.timeout_s);
  }
  for (const auto& spec : measure::metric_specs(d)) {
    const auto unit = measure::effective_unit(spec);
    fmt::print("  metric:   {} [{}{} is better]{}\n", measure::to_spec_string(spec),
               unit.empty() ? "" : unit + ", ", measure::to_string(spec.better),
               spec.name == d.primary ? " (primary)" : "");
  }
  fmt::print("  metric:   wall_s [s, lower is better]{} (always recorded)\n",
             d.primary == "wall_s" ? " (primary)" : "");
  if (d.min_effect_pct > 0) {
    fmt::print("  min effect: {}%\n", d.min_effect_pct);
  }
  if (!d.build.empty()) {
    fmt::print("  build:    {}\n", util::visible_controls("sh -c " + d.build));
  }
  if (!d.host.empty()) {
    fmt::print("  on:       {}\n", d.host);
  }
  if (d.exclude_throttled || d.clock_drop_pct != 10) {
    fmt::print("  throttled: SM clock {}% below the median{}\n", d.clock_drop_pct,
               d.exclude_throttled ? "; comparisons judge without throttled repeats" : "");
  }
  if (d.ci) {
    fmt::print("  ci:       yes (measured by 'ej ci')\n");
  }
  if (!d.check.empty()) {
    fmt::print("  check:    {}{}\n", util::visible_controls("sh -c " + d.check),
               d.check_every == 1 ? " (after every repeat)"
                                  : fmt::format(" (after every {} repeats)", d.check_every));
  }
  if (d.same_output.kind != core::SameOutput::Kind::None) {
    fmt::print("  same output: {} as the reference's\n", core::describe(d.same_output));
  }
  if (!d.check_times) {
    fmt::print("  check times: off (--no-check-times: a reported time may exceed its repeat's wall time)\n");
  }
  for (const auto& floor : d.floors) {
    fmt::print("  floor:    {}={:g} (a value beyond it is implausible)\n", floor.metric, floor.value);
  }
}

void run_bench_list(bool json)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto benches = store::list_benchmarks(journal.db());
  if (json) {
    print_json(evidence::bench_list_json(journal));
    return;
  }
  if (benches.empty()) {
    fmt::print("no benchmarks yet; register one with: ej bench add NAME --metric ... -- COMMAND ARGS\n");
  }
  for (const auto& bench : benches) {
    std::vector<std::string> damage;
    const auto d = core::bench_definition_from_json(bench.definition, damage);
    fmt::print("{:<24} r{:<3} {}{}{}\n", paint(bench.name, Colour::Bold), bench.revision, command_text(d),
               d.ci ? "  [ci]" : "",
               damage.empty() ? "" : "  (damaged: see 'ej bench show " + bench.name + "')");
    if (!damage.empty()) {
      fmt::print(stderr, "ej: benchmark {} revision {} is damaged: {}\n", bench.name, bench.revision,
                 fmt::join(damage, "; "));
    }
  }
}

void run_bench_show(const std::string& name, bool json)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto revisions = store::bench_revisions(journal.db(), name);
  if (revisions.empty()) {
    throw Error("no benchmark named '{}'; see 'ej bench list'", name);
  }
  if (json) {
    print_json(*evidence::bench_show_json(journal, name));
    return;
  }
  print_definition(revisions.back());
  if (const auto calibration =
          evidence::latest_calibration(journal.db(), name, "", revisions.back().revision)) {
    fmt::print("\ncalibration:\n");
    for (const auto& line : evidence::calibration_lines(*calibration)) {
      fmt::print("  {}\n", line);
    }
  } else {
    fmt::print("\nnot calibrated: 'ej calibrate {}' measures how small a change it can detect here\n", name);
  }
  if (revisions.size() > 1) {
    fmt::print("\nrevisions:\n");
    for (const auto& bench : revisions) {
      fmt::print("  r{:<3} {}  {}\n", bench.revision, util::format_utc(bench.created_ms),
                 command_text(core::readable_bench_definition(bench.definition)));
    }
  }
}

// "NAME=KIND[:ARG][@FILE]" and one line per reader, from the readers' table.
std::string metric_help()
{
  std::string help = "NAME=KIND[:ARG][@FILE] (repeatable), KIND one of:";
  for (const auto& reader : measure::readers()) {
    help += fmt::format("\n  {:<28}{}", reader.syntax, reader.help);
  }
  return help;
}

// A flag and its negation ("--ci,!--no-ci") that leaves `target` unset when neither is given, so that
// an edit keeps what the definition had: CLI11's add_flag sets a std::optional<bool> to false then.
void add_toggle(CLI::App* command, const std::string& names, std::optional<bool>& target,
                const std::string& description)
{
  command->add_flag_function(
      names, [&target](std::int64_t count) { target = count > 0; }, description);
}

void add_definition_options(CLI::App* command, BenchOptions& o)
{
  command->add_option("name", o.name, "Benchmark name (lowercase, digits, dashes)")->required();
  command->add_option("command", o.argv, "The command and its arguments, after --");
  command->add_option(
      "--shell", o.shell,
      "Run this string with /bin/sh -c instead of an argv command; {AXIS} is replaced by the "
      "value as it is, unquoted (write '{AXIS}' for one word), e.g. --shell './bench -n {n} | tail -1'");
  command->add_option("--cwd", o.cwd, "Working directory, relative to the repository root");
  command->add_option("--env", o.env, "K=V set for the benchmark (repeatable; no secrets: see below)");
  command->add_option("--param", o.params,
                      "AXIS=V1,V2,... or a range AXIS=MIN..MAX[:STEP] (1024..4096:1024), substituted for "
                      "{AXIS} (repeatable)");
  command->add_option("--warmup", o.warmup, "Unrecorded runs before measuring");
  command->add_option("--repeat", o.repeat, "Measured repeats (fixed count)");
  command->add_option("--min-repeats", o.min_repeats, "Adaptive: at least N repeats");
  command->add_option("--max-repeats", o.max_repeats, "Adaptive: at most N repeats");
  command->add_option("--max-noise", o.max_noise, "Adaptive: stop once the primary metric's CV is under PCT")
      ->check(finite_number());
  command->add_option("--budget", o.budget, "Adaptive: never run longer than SECONDS")
      ->check(finite_number());
  command->add_option("--timeout", o.timeout, "Seconds per repeat before the benchmark is stopped")
      ->check(finite_number());
  command->add_option("--metric", o.metrics, metric_help());
  command->add_option("--unit", o.units, "NAME=UNIT (repeatable)");
  command->add_option("--better", o.betters,
                      "NAME=higher|lower (repeatable; default: inferred from the unit or name)");
  command->add_option("--primary", o.primary, "The metric verdicts are about (default: the first)");
  command->add_option("--min-effect", o.min_effect, "Smallest change in % that matters")
      ->check(finite_number());
  command->add_option("--build", o.build,
                      "Shell command run in the working directory before the repeats (never timed; reused "
                      "while the code state is the same; '' removes it)");
  command->add_option("--on", o.host, "The host 'ej run' uses by default (see 'ej host add'; 'local': here)");
  command
      ->add_option("--clock-drop", o.clock_drop,
                   "GPU runs: a repeat whose SM clock is PCT below its combination's median is throttled "
                   "(default 10)")
      ->check(finite_number());
  command->add_option("--exclude-throttled", o.exclude_throttled,
                      "GPU runs: compare and judge without throttled repeats by default (true|false)");
  add_toggle(command, "--ci,!--no-ci", o.ci,
             "Measure it in 'ej ci', the pull-request gate (--no-ci: no longer), e.g. ej bench edit "
             "decode --ci");
  command->add_option("--check", o.check,
                      "Correctness command run with /bin/sh -c in the benchmark's directory after every "
                      "measured repeat; a non-zero exit ends the run as check-failed, never judged "
                      "('' removes it), e.g. --check 'cmp out.bin expected.bin'");
  command->add_option("--check-every", o.check_every,
                      "Run --check after every Nth repeat only, e.g. --check-every 5");
  command->add_option("--same-output", o.same_output,
                      "stdout, @FILE or METRIC: what must equal the baseline's for a verdict to stand (a "
                      "digest of stdout or of the file, a metric's median within --tolerance; '' removes "
                      "it), e.g. --same-output @result.bin");
  command
      ->add_option("--tolerance", o.tolerance,
                   "--same-output METRIC: how far in % the candidate's value may be from the baseline's, "
                   "e.g. --same-output checksum --tolerance 0.001")
      ->check(finite_number());
  add_toggle(command, "--check-times,!--no-check-times", o.check_times,
             "On by default: a time the benchmark prints that is longer than its repeat's wall time "
             "(by more than 1 ms + 5%, timer rounding) makes the run invalid, and one that improves while "
             "the wall time regresses flags the verdict. --no-check-times turns both off for a metric "
             "that legitimately sums time across GPUs or threads, or replays figures measured "
             "elsewhere, e.g. ej bench edit allreduce --no-check-times");
  command->add_option("--floor", o.floors,
                      "METRIC=VALUE, a physical bound in the metric's unit: a value beyond it on the better "
                      "side is implausible (repeatable; '' removes them), e.g. --floor copy_ms=0.8");
  command->footer(
      "A definition is stored in the journal, so a secret in it is refused: --password=X or --token X "
      "in the command, a token or user:pw@ in a URL, --env NAME=V with a secret-looking NAME. Export "
      "the secret and refer to it (--shell './bench --token \"$HF_TOKEN\"'), or give it to one run "
      "with 'ej run --env'. Numbers must be finite. Control characters are shown as ␛, ␇, ...");
}

} // namespace

void register_bench(CLI::App& app)
{
  auto* bench = app.add_subcommand("bench", "Register and inspect benchmarks");
  bench->require_subcommand(1);

  auto add_options = std::make_shared<BenchOptions>();
  auto* add = bench->add_subcommand("add", "Register a benchmark: ej bench add NAME [options] -- CMD ARG...");
  add_definition_options(add, *add_options);
  add->callback([add_options] { run_bench_add(*add_options, false); });

  auto edit_options = std::make_shared<BenchOptions>();
  auto* edit =
      bench->add_subcommand("edit", "Change a benchmark; creates a new revision, old runs keep theirs");
  add_definition_options(edit, *edit_options);
  edit->callback([edit_options] { run_bench_add(*edit_options, true); });

  auto list_json = std::make_shared<bool>(false);
  auto* list = bench->add_subcommand("list", "List the benchmarks");
  list->add_flag("--json", *list_json, "Print JSON");
  list->callback([list_json] { run_bench_list(*list_json); });

  auto show_name = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = bench->add_subcommand("show", "Show a benchmark and its revisions");
  show->add_option("name", *show_name, "Benchmark name")->required();
  show->add_flag("--json", *show_json, "Print JSON");
  show->callback([show_name, show_json] { run_bench_show(*show_name, *show_json); });

  register_bench_test(*bench);
}

} // namespace ej::cli
