#include "mcp/objects.h"
#include "mcp/tool.h"

#include "core/numbering.h"
#include "core/references.h"
#include "evidence/bench_json.h"
#include "evidence/compare_sides.h"
#include "evidence/ended_run_summary.h"
#include "evidence/live_progress.h"
#include "evidence/lookup.h"
#include "evidence/records_json.h"
#include "evidence/run_json.h"
#include "measure/comparison.h"
#include "measuring/detach.h"
#include "measuring/live_runs.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

// The tools of benchmarks and runs: bench_list, bench_show, runs, run and calibrate (detached),
// wait, cancel, compare.
namespace ej::mcp {

namespace {

using nlohmann::json;
using namespace schema;

Answer bench_list_tool(const Arguments&, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  auto list = evidence::bench_list_json(journal);
  std::vector<std::string> names;
  for (const auto& bench : list) {
    names.push_back(fmt::format("{} r{}", bench["name"].get<std::string>(), bench["revision"].get<int>()));
  }
  return {evidence::with_schema(json{{"benchmarks", evidence::with_schema(std::move(list))}}),
          names.empty() ? "no benchmarks yet; register one with: ej bench add NAME --metric ... -- COMMAND"
                        : util::join(names, ", ")};
}

Answer bench_show_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  auto shown = evidence::bench_show_json(journal, args.text("name"));
  if (!shown) {
    evidence::require_benchmark(journal, args.text("name")); // says so, with the closest names
    throw Error("no benchmark named '{}'; see bench_list", args.text("name"));
  }
  const auto revisions = (*shown)["revisions"].size();
  return {
      evidence::with_schema(std::move(*shown)),
      fmt::format("benchmark {}: {} revision{}", args.text("name"), revisions, revisions == 1 ? "" : "s")};
}

Answer runs_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  store::RunFilter filter;
  if (args.has("bench")) {
    filter.bench = evidence::require_benchmark(journal, args.text("bench")).name;
  }
  if (args.has("attempt")) {
    filter.attempt =
        evidence::require_attempt(journal, core::parse_attempt_number(args.name_of("attempt"))).number;
  }
  const auto limit = args.integer("limit").value_or(20);
  if (limit < 0) {
    throw UsageError("limit is a number of runs, 0 for all of them");
  }
  filter.limit = static_cast<int>(limit);
  evidence::Reader reader(journal);
  auto list = json::array();
  std::string text;
  for (const auto& run : store::list_runs(journal.db(), filter)) {
    list.push_back(evidence::run_json(reader, run, true));
    text += fmt::format("{}run {} {} r{} {}", text.empty() ? "" : "\n", core::number_label(run.number),
                        run.bench, run.revision, core::to_string(run.status));
  }
  return {evidence::with_schema(json{{"runs", evidence::with_schema(std::move(list))}}),
          text.empty() ? "no runs yet; start one with the run tool" : text};
}

// The command line of the detached ej: what `ej run` takes, the one language both front ends
// start a run in.
std::vector<std::string> run_command_line(const Arguments& args)
{
  std::vector<std::string> out{"run", args.text("bench")};
  const auto add = [&](const char* option, const std::string& value) {
    out.push_back(option);
    out.push_back(value);
  };
  if (args.has("attempt")) {
    add("--attempt", args.name_of("attempt"));
  }
  for (const auto& param : args.texts("params")) {
    add("--param", param);
  }
  for (const auto& env : args.texts("env")) {
    add("--env", env);
  }
  for (const char* name : {"repeat", "warmup"}) {
    if (const auto value = args.integer(name)) {
      add(name == std::string("repeat") ? "--repeat" : "--warmup", std::to_string(*value));
    }
  }
  for (const auto& [name, option] : std::initializer_list<std::pair<const char*, const char*>>{
           {"label", "--label"}, {"on", "--on"}, {"gpus", "--gpus"}, {"prepare", "--prepare"}}) {
    if (args.has(name)) {
      add(option, args.text(name));
    }
  }
  if (args.flag("no_build")) {
    out.push_back("--no-build");
  }
  // The interleaved session's options: ej run says which go only with --against.
  if (args.has("against")) {
    add("--against", args.text("against"));
  }
  if (args.flag("until_decisive")) {
    out.push_back("--until-decisive");
  }
  for (const auto& [name, option] : std::initializer_list<std::pair<const char*, const char*>>{
           {"max_rounds", "--max-rounds"}, {"block", "--block"}}) {
    if (const auto value = args.integer(name)) {
      add(option, std::to_string(*value));
    }
  }
  if (args.has("budget")) {
    add("--budget", args.text("budget"));
  }
  if (args.has("seed")) {
    add("--seed", args.name_of("seed"));
  }
  return out;
}

// `ej calibrate BENCH ...`: started detached as a run is, named by one of its two runs.
std::vector<std::string> calibrate_command_line(const Arguments& args)
{
  std::vector<std::string> out{"calibrate", args.text("bench")};
  const auto add = [&](const char* option, const std::string& value) {
    out.push_back(option);
    out.push_back(value);
  };
  for (const auto& [name, option] : std::initializer_list<std::pair<const char*, const char*>>{
           {"rounds", "--rounds"}, {"block", "--block"}}) {
    if (const auto value = args.integer(name)) {
      add(option, std::to_string(*value));
    }
  }
  if (args.has("seed")) {
    add("--seed", args.name_of("seed"));
  }
  if (args.has("gpus")) {
    add("--gpus", args.text("gpus"));
  }
  return out;
}

// Starts `ej ARGUMENTS` in the background within the call's bound; its error is the call's.
measuring::DetachedStart start_detached(const Context& context, const std::vector<std::string>& arguments)
{
  auto started = measuring::start_detached_run(context.workspace, arguments, context.waiting_s());
  if (!started.accepted) {
    const std::string said(util::trim(started.said));
    throw Error("{}", said.starts_with("ej: error: ") ? said.substr(11) : said);
  }
  return started;
}

json started_json(const measuring::DetachedStart& started)
{
  return evidence::with_schema(json{{"name", started.name},
                                    {"pid", started.pid},
                                    {"log", started.log.string()},
                                    {"state", started.still_checking ? "starting" : "started"}});
}

const char* checking_note(const measuring::DetachedStart& started)
{
  return started.still_checking ? " (its ej still checks the command line)" : "";
}

Answer run_tool(const Arguments& args, const Context& context)
{
  const auto started = start_detached(context, run_command_line(args));
  if (args.has("against")) {
    return {started_json(started),
            fmt::format("run {} (the candidate) started in the background{}, interleaved with a run of {} "
                        "that is recorded beside it; call wait with run {} (up to 10 s a call) until it "
                        "ends, cancel to stop both; then show run N (the number wait gives) has the "
                        "session's verdict in its comparison, with what to do next; its output goes to {}",
                        started.name, checking_note(started), args.text("against"), started.name,
                        started.log.string())};
  }
  return {
      started_json(started),
      fmt::format("run {} started in the background{}; call wait with run {} (up to 10 s a call) until it "
                  "ends, cancel to stop it; its output goes to {}",
                  started.name, checking_note(started), started.name, started.log.string())};
}

Answer calibrate_tool(const Arguments& args, const Context& context)
{
  const auto started = start_detached(context, calibrate_command_line(args));
  return {started_json(started),
          fmt::format("the calibration of {} started in the background{}: run {} is one side, the other is "
                      "recorded beside it; call wait with run {} (up to 10 s a call) until it ends, cancel "
                      "to stop both; then bench_show {} has the calibration; its output goes to {}",
                      args.text("bench"), checking_note(started), started.name, started.name,
                      args.text("bench"), started.log.string())};
}

json started_schema(const char* name)
{
  return schema::record(
      {{"schema", integer()},
       {"name", string(name)},
       {"pid", integer("its ej")},
       {"log", string("its output")},
       {"state", string("started (its ej checked the command line), or starting (still checking "
                        "when the call's time was up: wait says how it goes)")}});
}

json seed_argument()
{
  return either({"string", "integer"}, "replay the order of a recorded seed (a string keeps all its digits)");
}

Answer wait_tool(const Arguments& args, const Context& context)
{
  const int number = core::parse_run_number(args.name_of("run"));
  const double limit = context.waiting_s();
  const double timeout = std::min(args.number("timeout_s").value_or(10), limit);
  if (timeout < 0) {
    throw UsageError("timeout_s is a number of seconds, 0 or more");
  }
  auto journal = measuring::open_journal(context.workspace);
  // 0 is "look once": ej wait's "no limit" would outlive the bound.
  const auto waited =
      measuring::wait_for_runs(context.workspace, journal, {number}, timeout > 0 ? timeout : 1e-9).front();
  evidence::Reader reader(journal);
  auto out = evidence::waited_json(reader, context.workspace, waited);
  std::string text;
  if (waited.going()) {
    text = util::join(evidence::progress_lines(out), "\n") + "\ncall wait again to follow it";
  } else if (waited.run) {
    const auto& summary = out["summary"].get_ref<const std::string&>();
    text = std::string(util::trim(summary));
  } else {
    text = fmt::format("run {} failed before it was recorded: {}", out["name"].get<std::string>(),
                       out["reason"].get<std::string>());
  }
  return {evidence::with_schema(std::move(out)), text};
}

Answer cancel_tool(const Arguments& args, const Context& context)
{
  const int number = core::parse_run_number(args.name_of("run"));
  auto journal = measuring::open_journal(context.workspace);
  const auto outcome = measuring::cancel_run(context.workspace, journal, number, context.waiting_s(), false);
  const char* state = outcome.state == measuring::CancelOutcome::State::StoppedBeforeRecorded ? "stopped"
                      : outcome.state == measuring::CancelOutcome::State::Stopping            ? "stopping"
                                                                                              : "ended";
  evidence::Reader reader(journal);
  json out = {{"name", outcome.name},
              {"state", state},
              {"run", outcome.run ? evidence::run_json(reader, *outcome.run, false) : json()},
              {"summary", outcome.run && outcome.run->status != core::RunStatus::Started
                              ? evidence::ended_run_summary(journal, outcome.run->number)
                              : ""}};
  std::string text =
      outcome.state == measuring::CancelOutcome::State::StoppedBeforeRecorded
          ? fmt::format("stopped run {} before it was recorded; nothing was measured", outcome.name)
      : outcome.state == measuring::CancelOutcome::State::Stopping
          ? fmt::format("asked the ej of run {} to stop it; call wait to see it end", outcome.name)
          : std::string(util::trim(out["summary"].get_ref<const std::string&>()));
  return {evidence::with_schema(std::move(out)), text};
}

Answer compare_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  evidence::Reader reader(journal);
  const auto answer = evidence::compare_sides(
      reader, {args.name_of("reference"), args.name_of("candidate"), args.text("metric"), args.text("bench"),
               args.text("against"), args.flag("force"), args.flag("exclude_throttled")});
  auto out = evidence::compare_json(answer);
  std::string text;
  if (answer.interleaved) {
    text = util::join(evidence::interleaved_report(*answer.interleaved), "\n");
  } else {
    for (const auto& c : answer.compared) {
      const auto doubt = evidence::integrity_text(c.judged.integrity);
      text += fmt::format("{}{} vs {} on {}: {}{}", text.empty() ? "" : "\n", c.reference.label,
                          c.candidate.label, c.candidate.bench, measure::to_string(c.judged.outcome),
                          doubt.empty() ? "" : " (" + doubt + ")");
    }
    for (const auto& line : answer.not_compared) {
      text += "\nnot compared: " + line;
    }
  }
  return {evidence::with_schema(std::move(out)), text};
}

json run_argument(const char* description)
{
  return either({"string", "integer"}, description);
}

} // namespace

void add_run_tools(std::vector<Tool>& tools)
{
  tools.push_back({"bench_list", "List benchmarks",
                   "Every benchmark's latest revision (ej bench list --json).", arguments({}),
                   objects::listing("benchmarks", objects::bench()), true, false, bench_list_tool});
  tools.push_back({"bench_show", "Show a benchmark",
                   "A benchmark's revisions and its latest calibration (ej bench show NAME --json).",
                   arguments({{"name", string("the benchmark")}}, {"name"}), objects::bench_show(), true,
                   false, bench_show_tool});
  tools.push_back({"runs", "List runs",
                   "Recorded runs, newest first, with their samples and summaries (ej runs --json).",
                   arguments({{"bench", string("only this benchmark")},
                              {"attempt", run_argument("only runs of this attempt (12, #12)")},
                              {"limit", integer("at most this many (default 20; 0: all)")}}),
                   objects::listing("runs", objects::run()), true, false, runs_tool});
  tools.push_back(
      {"run", "Run a benchmark in the background",
       "Start a registered benchmark detached (ej run --detach) and return its name (run @k3f9qx) at once; "
       "the "
       "build step and the repeats go on in the background. Follow it with wait, stop it with cancel.",
       arguments({{"bench", string("the benchmark")},
                  {"attempt", run_argument("the attempt these results belong to (12, #12)")},
                  {"params", array(string(), "AXIS=V1,V2 or AXIS=MIN..MAX[:STEP]: only these values")},
                  {"repeat", integer("repeats per combination (overrides the benchmark's policy)")},
                  {"warmup", integer("unmeasured runs before the repeats of each combination")},
                  {"env", array(string(), "NAME=VALUE for this run")},
                  {"label", string("a note that names this run")},
                  {"on", string("ssh:HOST, a host added with ej host add, or slurm[:PARTITION]")},
                  {"gpus", string("GPUs to use, as CUDA_VISIBLE_DEVICES takes them")},
                  {"prepare", string("a shell command before each repeat, not timed")},
                  {"no_build", boolean("skip the benchmark's build step")},
                  {"against", string("measure interleaved against this code state (ej run --against): "
                                     "baseline, a commit, #12 or r5; repeat is then the rounds")},
                  {"until_decisive",
                   boolean("with against: stop once the verdict is decisive (a sequential test)")},
                  {"max_rounds", integer("with until_decisive: the most rounds (default 100)")},
                  {"budget", string("with until_decisive: stop once this much time is spent: 90s, 15m, 2h")},
                  {"block", integer("with against: repeats of each side per round (default 1)")},
                  {"seed", seed_argument()}},
                 {"bench"}),
       started_schema("the run's name before it is recorded: @k3f9qx (with against: the candidate's)"), false,
       false, run_tool});
  tools.push_back(
      {"calibrate", "Calibrate a benchmark in the background",
       "Measure a benchmark against itself, interleaved (ej calibrate, detached), to learn this machine's "
       "noise and the smallest change a verdict could detect; returns one of its two runs' names at once. "
       "Follow it with wait; once it ended, bench_show gives the calibration.",
       arguments({{"bench", string("the benchmark")},
                  {"rounds", integer("rounds of one repeat a side (default 20)")},
                  {"block", integer("repeats of each side per round (default 1)")},
                  {"seed", seed_argument()},
                  {"gpus", string("GPUs to use, as CUDA_VISIBLE_DEVICES takes them")}},
                 {"bench"}),
       started_schema("the name of one of its runs before it is recorded: @k3f9qx"), false, false,
       calibrate_tool});
  tools.push_back(
      {"wait", "Wait for a run",
       "Wait up to timeout_s (default 10, at most the call's bound less a second) for a run to end: "
       "how it ended (its summary and verdict), or how far it has come (repeats done of those "
       "planned, the primary metric's medians and intervals so far, the time left). Call again "
       "while state is preparing or running.",
       arguments({{"run", run_argument("the run: @k3f9qx (as run returned it), r5 or 5")},
                  {"timeout_s", number("seconds to wait at most (default 10)")}},
                 {"run"}),
       objects::waited(), true, false, wait_tool});
  tools.push_back(
      {"cancel", "Stop a run",
       "Stop a running run (ej cancel): its ej stops the benchmark and records the run interrupted, "
       "saying who cancelled it; the repeats measured before are kept.",
       arguments({{"run", run_argument("the run: @k3f9qx, r5 or 5")}}, {"run"}),
       schema::record({{"schema", integer()},
                       {"name", string()},
                       {"state", string("stopped (before it was recorded), ended, or stopping (its ej "
                                        "had not ended it when the call's time was up)")},
                       {"run", nullable(object("the run as ej runs --json lists it, without samples"))},
                       {"summary", string()}}),
       false, true, cancel_tool});
  tools.push_back(
      {"compare", "Compare runs or attempts",
       "Compare two runs (r5) or attempts (12), or one alone against its plan's baseline: medians, change, "
       "interval, p-value and outcome per metric and combination (ej compare --json); two runs measured "
       "together "
       "by ej run --against are judged on their pairs.",
       arguments(
           {{"reference", run_argument("the reference (r5, 12, r5:AXIS=V), or the candidate when alone")},
            {"candidate", run_argument("the candidate; omitted: reference against its plan's baseline")},
            {"metric", string("only this metric")},
            {"bench", string("for attempts: the benchmark")},
            {"against", string("with one side: then (default) or current")},
            {"force", boolean("compare across benchmark revisions")},
            {"exclude_throttled", boolean("leave out repeats on a throttled GPU")}},
           {"reference"}),
       objects::comparison(), true, false, compare_tool});
}

} // namespace ej::mcp
