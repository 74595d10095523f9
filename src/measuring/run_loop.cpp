#include "measuring/run_loop.h"

#include "core/numbering.h"
#include "core/run_records.h"
#include "measure/direction.h"
#include "measure/extract.h"
#include "measure/live_extraction.h"
#include "measure/result_files.h"
#include "measure/self_report.h"
#include "measure/statistics.h"
#include "measure/value_list.h"
#include "measuring/output_digests.h"
#include "measuring/repeat_writer.h"
#include "measuring/run_observer.h"
#include "measuring/run_prepare.h"
#include "run/process.h"
#include "run/run_cgroup.h"
#include "run/signals.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace ej::measuring {

namespace {

using nlohmann::json;

bool reads_stream_whole(const std::vector<measure::MetricSpec>& metrics, bool from_stderr);

// The benchmark's command for one combination, or `shell` instead of it (--prepare) with the same
// directory, environment and launcher.
run::ProcessSpec process_for(const RunPlan& plan, const core::ParamValues& values,
                             const std::optional<std::string>& shell = std::nullopt)
{
  const auto& d = plan.definition;
  run::ProcessSpec spec;
  if (shell) {
    spec.shell = core::substitute(*shell, values);
  } else if (!d.shell.empty()) {
    spec.shell = core::substitute(d.shell, values);
  } else {
    for (const auto& arg : d.argv) {
      spec.argv.push_back(core::substitute(arg, values));
    }
  }
  spec.cwd = plan.work_tree / core::substitute(d.cwd, values);
  for (const auto& [key, value] : d.env) {
    spec.env.emplace_back(key, core::substitute(value, values));
  }
  for (const auto& entry : plan.extra_env) {
    spec.env.push_back(entry);
  }
  if (plan.host_sampling) { // nvidia-smi beside the benchmark, where it runs
    spec.argv = run::sampled_command(
        *plan.host_sampling, spec.shell ? std::vector<std::string>{"/bin/sh", "-c", *spec.shell} : spec.argv);
    spec.shell.reset();
  }
  if (!plan.launch_prefix.empty()) {
    auto argv = plan.launch_prefix;
    if (spec.shell) {
      argv.insert(argv.end(), {"/bin/sh", "-c", *spec.shell});
      spec.shell.reset();
    } else {
      argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
    }
    spec.argv = std::move(argv);
  }
  spec.timeout_s = d.timeout_s;
  spec.echo = plan.repeats.echo;
  // --same-output stdout digests the whole stream, however much of it the journal keeps.
  spec.keep_whole_out =
      reads_stream_whole(plan.metrics, false) || d.same_output.kind == core::SameOutput::Kind::Stdout;
  spec.keep_whole_err = reads_stream_whole(plan.metrics, true);
  return spec;
}

std::string last_lines(const std::string& text, std::size_t count)
{
  const auto all = util::lines(text);
  std::vector<std::string> tail(all.end() - static_cast<std::ptrdiff_t>(std::min(count, all.size())),
                                all.end());
  return util::join(tail, "\n");
}

// "exited with 3: <the last lines of its stderr>", secrets hidden.
std::string failure_text(store::Journal& journal, const run::ProcessResult& result)
{
  const auto err_tail = last_lines(journal.redactor().redact(result.err.text()), 3); // whole, then cut
  return run::describe(result) + (err_tail.empty() ? "" : ": " + err_tail);
}

core::RepeatEnding repeat_ending_for(run::Ending ending)
{
  switch (ending) {
  case run::Ending::Exited:
    return core::RepeatEnding::Exited;
  case run::Ending::Signaled:
    return core::RepeatEnding::Signaled;
  case run::Ending::TimedOut:
    return core::RepeatEnding::TimedOut;
  case run::Ending::Interrupted:
    return core::RepeatEnding::Interrupted;
  case run::Ending::SpawnFailed:
    return core::RepeatEnding::SpawnFailed;
  }
  return core::RepeatEnding::SpawnFailed;
}

core::RunStatus status_for(run::Ending ending)
{
  switch (ending) {
  case run::Ending::TimedOut:
    return core::RunStatus::Timeout;
  case run::Ending::Interrupted:
    return core::RunStatus::Interrupted;
  default:
    return core::RunStatus::Failed;
  }
}

// The primary metric's values so far, for the progress line's median and --max-noise: all of them
// up to k_kept, then an even subsample (every 2nd, then every 4th... value), so that a benchmark
// printing millions of values does not grow ej without end.
class PrimaryValues {
public:
  void add(double value)
  {
    if (m_seen++ % m_stride != 0) {
      return;
    }
    m_values.push_back(value);
    if (m_values.size() >= k_kept) {
      for (std::size_t i = 0; 2 * i < m_values.size(); ++i) {
        m_values[i] = m_values[2 * i];
      }
      m_values.resize((m_values.size() + 1) / 2);
      m_stride *= 2;
    }
  }
  const std::vector<double>& values() const { return m_values; }
  bool empty() const { return m_values.empty(); }

private:
  static constexpr std::size_t k_kept = 100'000;
  std::vector<double> m_values;
  std::uint64_t m_seen = 0;
  std::uint64_t m_stride = 1;
};

core::SampleRecord sample_record(std::string metric, std::string key, double value, std::string unit,
                                 core::SampleKind kind)
{
  core::SampleRecord sample;
  sample.metric = std::move(metric);
  sample.key = std::move(key);
  sample.value = value;
  sample.unit = std::move(unit);
  sample.kind = kind;
  return sample;
}

// One repeat on its host, with what its GPUs went through when they are read (here, or on the host).
run::ProcessResult run_repeat(const RunPlan& plan, run::Launcher& launcher, core::DeviceState& device)
{
  if (plan.sampler != nullptr) {
    plan.sampler->start_repeat();
  }
  auto result = launcher.run();
  if (plan.sampler != nullptr) {
    device = plan.sampler->end_repeat();
  }
  plan.host->settle(result);
  if (plan.host_sampling && !run::InterruptGuard::interrupted() &&
      result.ending != run::Ending::SpawnFailed) {
    try {
      device = run::summarize_host_readings(plan.host->read_text(plan.host_sampling->file).value_or(""));
    } catch (const Error&) {
      // the repeat stands without its device state: a lost connection is the next repeat's to say
    }
  }
  return result;
}

PendingRepeat repeat_record(int index, const std::string& params, bool warmup,
                            const run::ProcessResult& result, core::DeviceState device)
{
  PendingRepeat record;
  record.repeat.device = std::move(device);
  record.repeat.index = index;
  record.repeat.params = params;
  record.repeat.warmup = warmup || result.stopped; // ej was stopped (Ctrl-Z): not a measurement
  record.repeat.ending =
      result.stopped && result.succeeded() ? core::RepeatEnding::Stopped : repeat_ending_for(result.ending);
  record.repeat.exit_code = result.exit_code;
  record.repeat.signal = result.signal;
  record.repeat.wall_s = result.wall_s;
  record.repeat.user_s = result.user_s;
  record.repeat.sys_s = result.sys_s;
  record.repeat.max_rss_kb = result.max_rss_kb;
  return record;
}

// What extraction reads of one stream: all of it, from the capture when nothing was cut, else
// from the temporary copy the capture kept (process_for asks for one when a metric reads it).
measure::TextSource whole_stream(const run::Capture& capture, const std::string& text, std::string_view name)
{
  if (capture.cut_bytes == 0) {
    return measure::TextSource(text);
  }
  if (capture.whole && capture.whole->ok()) {
    return measure::TextSource::of_file(capture.whole, capture.whole->fd(), capture.whole->size());
  }
  return measure::TextSource::unavailable(
      fmt::format("the program printed {} bytes on {}, more than ej keeps in memory, and {}",
                  capture.total_bytes, name,
                  capture.whole ? capture.whole->error() : "no whole copy was kept"),
      capture.tail);
}

// Whether a metric reads the whole stream after the repeat (a JSON document on stdout, say):
// then the capture keeps a temporary copy of an output that outgrows it. Line-based metrics
// are read live and need none.
bool reads_stream_whole(const std::vector<measure::MetricSpec>& metrics, bool from_stderr)
{
  for (const auto& metric : metrics) {
    if (metric.file.empty() && metric.from_stderr == from_stderr &&
        !measure::LiveExtraction::reads_live(metric)) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> result_file_names(const std::vector<measure::MetricSpec>& metrics)
{
  std::vector<std::string> names;
  for (const auto& metric : metrics) {
    if (!metric.file.empty() && std::find(names.begin(), names.end(), metric.file) == names.end()) {
      names.push_back(metric.file);
    }
  }
  return names;
}

// The unit a metric's values came in, as they are stored: what settle_units gave the values of the
// metric's own quantity, else the metric's.
std::string measured_unit(const measure::MetricSpec& metric, const measure::ValueList& values)
{
  for (const auto& label : values.labels()) { // in the order of their first value
    if (!label.own_unit && !label.skipped && !label.unit.empty()) {
      return label.unit;
    }
  }
  return measure::effective_unit(metric);
}

// Extracts every metric from one repeat into its record. Throws the first metric's failure.
void extract_samples(const RunPlan& plan, const run::ProcessResult& result, measure::ResultFiles& files,
                     measure::LiveExtraction& live, PendingRepeat& record, PrimaryValues& primary,
                     std::vector<std::string>& said, RunObserver& observer)
{
  const auto out = result.out.text();
  const auto err = result.err.text();
  const measure::ExtractInput input{
      whole_stream(result.out, out, "stdout"), whole_stream(result.err, err, "stderr"),
      [&files, &said, &observer](const measure::MetricSpec& metric) {
        auto file = files.open(metric);
        // Which file a glob chose, said once per choice.
        const auto& choice = files.last_choice();
        if (!choice.empty() && std::find(said.begin(), said.end(), choice) == said.end()) {
          said.push_back(choice);
          observer.message(fmt::format("ej: metric '{}' reads {}", metric.name, choice));
        }
        return file;
      },
      [&live](const measure::MetricSpec& metric) { return live.scanner_for(metric); }};
  for (const auto& metric : plan.metrics) {
    auto values = measure::extract_list(metric, input);
    // Which way the metric improves, once its values show their unit: said once a run.
    if (const auto note = measure::direction_note(metric, measured_unit(metric, values), plan.bench);
        !note.empty() && std::find(said.begin(), said.end(), note) == said.end()) {
      said.push_back(note);
      observer.message("ej: " + note);
    }
    // A value that came without a unit takes the metric's, unless it is not of the metric's quantity.
    for (auto& label : values.labels()) {
      if (label.unit.empty() && !label.own_unit) {
        label.unit = measure::effective_unit(metric);
      }
    }
    if (metric.name == plan.definition.primary) {
      for (const auto& run : values.runs()) {
        if (!run.label.skipped && !run.label.aggregate) {
          for (const double value : run.values) {
            primary.add(value);
          }
        }
      }
    }
    record.metrics.push_back({metric.name, std::move(values)});
  }
}

// Why a measured repeat's results cannot be true, when they cannot (docs/benchmarks.md, "Checks"):
// work of its process group still running once it exited, or a time it printed that is longer
// than the repeat took.
std::optional<std::string> repeat_invalidity(const RunPlan& plan, const run::ProcessResult& result,
                                             const PendingRepeat& record)
{
  // Only here and bare: a launcher (srun) or nvidia-smi beside the benchmark are ej's own work.
  const bool bare = plan.host->is_this_machine() && plan.launch_prefix.empty() && !plan.host_sampling;
  if (bare && result.leftovers_killed) {
    return "the benchmark exited with work of its process group still running (stopped by ej), so the "
           "repeat's time leaves that work out; wait for it before exiting";
  }
  if (!plan.definition.check_times) {
    return std::nullopt;
  }
  for (const auto& [metric, values] : record.metrics) {
    // perf stat's times are ej's measurement of CPU time, summed over the threads: no self-report.
    const auto spec = std::find_if(plan.definition.metrics.begin(), plan.definition.metrics.end(),
                                   [&](const core::MetricSpec& m) { return m.name == metric; });
    if (spec != plan.definition.metrics.end() && spec->kind == core::ExtractorKind::PerfStat) {
      continue;
    }
    if (const auto why = measure::impossible_time(metric, values, result.wall_s)) {
      return *why + ": the benchmark's own timer cannot be right";
    }
  }
  return std::nullopt;
}

// Tells the observer that the run ended, on every way out of measure_run.
struct EndsRun {
  RunObserver& observer;
  ~EndsRun() { observer.run_ended(); }
};

// The unit of the primary metric, for the progress line's median.
std::string primary_unit(const RunPlan& plan)
{
  for (const auto& metric : plan.metrics) {
    if (metric.name == plan.definition.primary) {
      return measure::effective_unit(metric);
    }
  }
  return "s"; // wall_s
}

} // namespace

RunOutcome measure_run(store::Journal& journal, const RunPlan& plan)
{
  RunOutcome outcome;
  outcome.status = core::RunStatus::Finished;
  const auto& policy = plan.definition.policy;
  const int warmups = plan.repeats.warmups.value_or(policy.warmup);
  const int planned = plan.repeats.count.value_or(policy.adaptive ? policy.max_repeats : policy.repeat);
  const int combinations = static_cast<int>(plan.combinations.size());
  RunObserver& observer = *plan.observer;
  observer.run_started({plan.definition.primary.empty() ? "wall_s" : plan.definition.primary,
                        primary_unit(plan), combinations, combinations * (warmups + planned)});
  const EndsRun ends_run{observer}; // however measuring ends
  std::optional<RepeatWriter> own_writer;
  RepeatWriter& writer = plan.writer != nullptr
                             ? *plan.writer
                             : own_writer.emplace(journal, plan.run_number, plan.run_id, observer);
  const auto started_ns = util::monotonic_ns();
  run::ProcessResult last;
  int index = plan.first_repeat_index;
  bool budget_spent = false;
  const auto run_label = fmt::format("run-{}", plan.run_number);
  // The file of --same-output @FILE is managed as a metric's is: moved aside before the run, removed
  // between repeats, so that a repeat that writes nothing is never digested from an older one.
  auto file_metrics = plan.metrics;
  if (plan.definition.same_output.kind == core::SameOutput::Kind::File) {
    file_metrics.emplace_back();
    file_metrics.back().name = "same-output";
    file_metrics.back().file = plan.definition.same_output.name;
  }
  plan.host->fetch_result_files(result_file_names(file_metrics), run_label, plan.work_tree);
  // A host's result files are read from the local copy it brings back after each repeat.
  measure::ResultFiles files(file_metrics, plan.host->local_path(plan.work_tree), run_label);
  OutputDigests digests(plan.definition.same_output);
  std::vector<std::string> own_said;
  auto& said = plan.said != nullptr ? *plan.said : own_said;
  measure::LiveExtraction live(plan.metrics);
  std::optional<run::RunContainment> own_containment;
  run::RunContainment* containment = plan.containment;
  if (containment == nullptr && plan.host->is_this_machine()) {
    containment = &own_containment.emplace(); // before the first process of the run
  }
  const auto prepare_files = [&](const std::filesystem::path& cwd) {
    for (const auto& line : files.before_repeat(plan.host->local_path(cwd))) {
      observer.message("ej: " + line);
    }
  };

  const auto stop = [&](core::RunStatus status, std::string reason) {
    outcome.status = status;
    outcome.reason = std::move(reason);
  };

  int combination = 0;
  for (const auto& values : plan.combinations) {
    auto spec = process_for(plan, values);
    spec.on_output = [&live, &observer](run::Stream stream, std::string_view data) {
      live.feed(stream == run::Stream::Err, data);
      observer.output(data);
    };
    run::Launcher launcher(plan.host->prepare(spec));
    PrepareStep prepare(plan.repeats.prepare.empty()
                            ? std::nullopt
                            : std::optional(process_for(plan, values, plan.repeats.prepare)),
                        *plan.host);
    const auto params = json(values).dump();
    const auto where = core::describe(values).empty() ? std::string() : " (" + core::describe(values) + ")";
    const auto& check_command = plan.definition.check;
    PrepareStep check(check_command.empty() ? std::nullopt
                                            : std::optional(process_for(plan, values, check_command)),
                      *plan.host);
    int unchecked = 0; // measured repeats since the check last ran
    int measured = 0;  // of this combination
    // Runs --check after `repeat` (1-based); false when it failed, which ends the run.
    const auto checked = [&](int repeat) {
      unchecked = 0;
      const auto failed = check.run();
      if (!failed) {
        return true;
      }
      outcome.check_output = journal.redactor().redact(failed->out.text() + failed->err.text());
      stop(failed->ending == run::Ending::Interrupted ? core::RunStatus::Interrupted
                                                      : core::RunStatus::CheckFailed,
           fmt::format("--check after repeat {}{} {}", repeat, where, failure_text(journal, *failed)));
      return false;
    };
    observer.combination_started(++combination, core::describe(values), planned);
    PrimaryValues primary;
    for (int warm = 0; warm < warmups && outcome.status == core::RunStatus::Finished; ++warm) {
      prepare_files(spec.cwd);
      if (const auto failed = prepare.run()) {
        stop(status_for(failed->ending),
             fmt::format("--prepare before warmup {}{} {}", warm + 1, where, failure_text(journal, *failed)));
        break;
      }
      live.stop(); // a warmup's output is not read
      observer.repeat_started(warm + 1, true);
      core::DeviceState device;
      last = run_repeat(plan, launcher, device);
      observer.repeat_ended(std::nullopt);
      writer.add(repeat_record(index++, params, true, last, std::move(device)));
      if (!last.succeeded()) {
        stop(status_for(last.ending),
             fmt::format("warmup {}{} {}", warm + 1, where, failure_text(journal, last)));
      }
    }
    for (int repeat = 0; repeat < planned && outcome.status == core::RunStatus::Finished; ++repeat) {
      prepare_files(spec.cwd); // never read a previous repeat's results, never lose the user's
      if (const auto failed = prepare.run()) {
        stop(status_for(failed->ending), fmt::format("--prepare before repeat {}{} {}", repeat + 1, where,
                                                     failure_text(journal, *failed)));
        break;
      }
      live.start_repeat();
      observer.repeat_started(repeat + 1, false);
      core::DeviceState device;
      last = run_repeat(plan, launcher, device);
      live.end_repeat();
      auto record = repeat_record(index++, params, false, last, std::move(device));
      if (last.stopped && last.succeeded()) { // recorded, not measured, and made again
        writer.add(std::move(record));
        --repeat;
        continue;
      }
      ++outcome.repeats;
      if (!last.succeeded()) {
        writer.add(std::move(record));
        stop(status_for(last.ending),
             fmt::format("repeat {}{} {}", repeat + 1, where, failure_text(journal, last)));
        break;
      }
      record.samples.push_back(sample_record("wall_s", "", last.wall_s, "s", core::SampleKind::Sample));
      try {
        extract_samples(plan, last, files, live, record, primary, said, observer);
      } catch (const std::exception& error) {
        writer.add(std::move(record));
        stop(core::RunStatus::ExtractError, fmt::format("repeat {}{}: {}", repeat + 1, where, error.what()));
        break;
      }
      if (const auto why = repeat_invalidity(plan, last, record)) {
        writer.add(std::move(record));
        stop(core::RunStatus::Invalid, fmt::format("repeat {}{}: {}", repeat + 1, where, *why));
        break;
      }
      if (plan.definition.primary == "wall_s") {
        primary.add(last.wall_s);
      }
      writer.add(std::move(record));
      digests.add(core::describe(values), last, plan.host->local_path(spec.cwd));
      measured = repeat + 1;
      if (!check_command.empty() && ++unchecked >= plan.definition.check_every && !checked(repeat + 1)) {
        break;
      }
      observer.repeat_ended(plan.repeats.progress && !primary.empty()
                                ? std::optional(measure::median(primary.values()))
                                : std::nullopt);
      if (policy.adaptive && !plan.repeats.count) {
        const int done = repeat + 1;
        const double elapsed = static_cast<double>(util::monotonic_ns() - started_ns) / 1e9;
        if (policy.budget_s > 0 && elapsed >= policy.budget_s) {
          budget_spent = true; // the budget is the whole run's: later combinations do not start
          break;
        }
        if (done >= policy.min_repeats && policy.max_noise_pct > 0 && primary.values().size() >= 2) {
          const auto summary = measure::summarize(primary.values());
          if (summary.cv && *summary.cv * 100.0 <= policy.max_noise_pct) {
            break;
          }
        }
      }
    }
    // The last repeats of a combination are checked too, however few since the last check.
    if (unchecked > 0 && outcome.status == core::RunStatus::Finished) {
      checked(measured);
    }
    if (outcome.status != core::RunStatus::Finished) {
      break;
    }
    if (budget_spent) {
      outcome.reason =
          fmt::format("the --budget of {} s was spent during {}; later combinations were not run",
                      policy.budget_s, core::describe(values).empty() ? "the run" : core::describe(values));
      break;
    }
  }
  // A signal that arrived while ej itself was busy (extracting, writing) still ends the run.
  if (run::InterruptGuard::interrupted() && outcome.status == core::RunStatus::Finished) {
    stop(core::RunStatus::Interrupted,
         "interrupted after the last repeat had finished; its samples are kept");
  }
  // Before the last write: ej's way out of the run's cgroup (an RCU grace period) overlaps it.
  std::optional<run::Leftovers> leftovers;
  if (containment != nullptr) {
    leftovers = own_containment ? containment->finish() : containment->sweep();
  } else if (index > plan.first_repeat_index && outcome.status != core::RunStatus::Interrupted) {
    // An interrupted run's host was cleared by its wrapper when the connection closed.
    try {
      leftovers = plan.host->stop_leftovers();
    } catch (const Error& error) {
      observer.message(fmt::format("ej: warning: what the benchmark left running on the host could not be "
                                   "stopped: {}",
                                   error.what()));
    }
  }
  if (own_writer) {
    own_writer->flush(); // a session's writer is flushed by the session
  }
  outcome.records = index - plan.first_repeat_index;
  if (index > plan.first_repeat_index) {
    outcome.last_stdout = last.out.text();
    outcome.last_stderr = last.err.text();
    outcome.outputs = {{"stdout_bytes", last.out.total_bytes},
                       {"stdout_cut_bytes", last.out.cut_bytes},
                       {"stderr_bytes", last.err.total_bytes},
                       {"stderr_cut_bytes", last.err.cut_bytes}};
  }
  if (digests.active()) {
    outcome.outputs["same_output"] = digests.to_json();
  }
  if (leftovers) {
    outcome.outputs["leftovers"] = {{"processes", leftovers->processes}, {"found_by", leftovers->found_by}};
    // Work that outlived its repeat ran beside the next one, or after the last: no repeat's time
    // holds all the work, so none can be judged.
    if (leftovers->processes > 0 && outcome.status == core::RunStatus::Finished) {
      stop(core::RunStatus::Invalid,
           fmt::format("the benchmark left {} process{} running outside its process group after its repeats "
                       "(setsid, a daemon), so their time is not in the repeats'; wait for the work before "
                       "exiting",
                       leftovers->processes, leftovers->processes == 1 ? "" : "es"));
    }
    if (leftovers->processes > 0) {
      observer.message(
          fmt::format("ej: the benchmark left {} process{} running outside its process group "
                      "(setsid, a daemon); stopped (found by {})",
                      leftovers->processes, leftovers->processes == 1 ? "" : "es",
                      leftovers->found_by == "cgroup" ? "the run's cgroup" : "the EJ_GUARD variable"));
    }
  }
  return outcome;
}

} // namespace ej::measuring
