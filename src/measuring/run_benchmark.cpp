#include "measuring/run_benchmark.h"

#include "core/numbering.h"
#include "core/redact.h"
#include "measure/bench_metrics.h"
#include "measure/value_list.h"
#include "measuring/code_state.h"
#include "measuring/run_gpus.h"
#include "measuring/run_inputs.h"
#include "measuring/run_target.h"
#include "measuring/stale_runs.h"
#include "remote/host_registry.h"
#include "remote/result_fetch.h"
#include "run/environment.h"
#include "run/owner.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <unistd.h>

namespace ej::measuring {

namespace {

// Only registered values: a run of another value would not be what the revision describes.
std::map<std::string, std::vector<std::string>> chosen_params(const std::vector<ParamChoice>& choices,
                                                              const core::BenchDefinition& definition)
{
  std::map<std::string, std::vector<std::string>> chosen;
  for (const auto& choice : choices) {
    const auto axis = std::find_if(definition.params.begin(), definition.params.end(),
                                   [&](const core::ParamAxis& a) { return a.name == choice.axis; });
    if (axis == definition.params.end()) {
      throw UsageError("the benchmark has no parameter axis '{}'; see 'ej bench show'", choice.axis);
    }
    auto& values = chosen[choice.axis];
    for (const auto& value : choice.values) {
      if (std::find(axis->values.begin(), axis->values.end(), value) == axis->values.end()) {
        throw UsageError(
            "'{}' is not a value of the axis {} ({}); add it with 'ej bench edit ... --param {}=...'", value,
            choice.axis, util::join(axis->values, ","), choice.axis);
      }
      if (std::find(values.begin(), values.end(), value) == values.end()) {
        values.push_back(value);
      }
    }
  }
  return chosen;
}

// What RunTarget connects to for slurm@HOST: a host added with `ej host add` (its root and
// variables), else the ssh destination; "local" for a cluster whose file system is this one.
std::string login_host_target(const Workspace& workspace, const std::string& login_host)
{
  if (login_host.empty()) {
    return "local";
  }
  for (const auto& host : remote::load_hosts(workspace.ej_dir / "hosts.json")) {
    if (host.name == login_host) {
      return login_host;
    }
  }
  return "ssh:" + login_host;
}

// On this machine: the run holds its GPUs (waiting for them when it has to) while it measures,
// with their clocks locked when asked and their state read during every repeat.
RunOutcome measure_here(store::Journal& journal, RunPlan& plan, std::unique_ptr<run::GpuLock> gpu_lock,
                        run::LockTicket ticket, const DeviceOptions& device_options)
{
  if (gpu_lock) {
    gpu_lock->set_run(plan.run_number);
  } else {
    ticket.run = plan.run_number;
    gpu_lock = wait_for_gpus(ticket, *plan.observer); // a queued run: recorded, waiting its turn
  }
  if (!gpu_lock) {
    RunOutcome outcome;
    outcome.status = core::RunStatus::Interrupted;
    outcome.reason =
        fmt::format("interrupted while waiting for {}; nothing was measured", run::describe(ticket.gpus));
    return outcome;
  }
  std::optional<RunDevices> devices;
  try {
    devices.emplace(ticket.gpus, device_options, *plan.observer); // only once the GPUs are this run's
  } catch (const Error& error) {
    RunOutcome outcome;
    outcome.status = core::RunStatus::Failed;
    outcome.reason = error.what();
    return outcome;
  }
  plan.sampler = devices->sampler();
  auto outcome = measure_run(journal, plan);
  plan.sampler = nullptr;
  return outcome; // the clocks are reset and the lock goes: the next run may start while this one is written
}

// The overrides as the run records them: a secret-named variable's value is never kept, however
// short (the redactor hides values by their text only from 6 characters on).
std::vector<std::pair<std::string, std::string>>
recorded_env(const std::vector<std::pair<std::string, std::string>>& env)
{
  auto out = env;
  for (auto& [name, value] : out) {
    if (core::secret_name(name)) {
      value = std::string(core::k_redacted);
    }
  }
  return out;
}

run::EnvOptions environment_options(store::Journal& journal, const RunPlan& plan)
{
  run::EnvOptions options;
  for (const auto& [key, value] : plan.definition.env) {
    options.extra_variables.push_back(key);
    options.overrides.emplace_back(key, value);
  }
  for (const auto& entry : plan.extra_env) {
    options.extra_variables.push_back(entry.first);
    options.overrides.push_back(entry);
  }
  for (const auto& [name, definition] : store::list_probes(journal.db())) {
    options.probes.push_back(probe_from_json(name, definition, plan.work_tree));
  }
  return options;
}

// The reason an interrupted run is recorded with: `ej cancel` leaves who asked, put first.
std::string interruption_reason(const Workspace& workspace, int run, const std::string& reason)
{
  const auto request = cancel_request_path(workspace, run);
  if (auto text = util::read_file(request)) {
    std::error_code ec;
    std::filesystem::remove(request, ec);
    return fmt::format("{}: {}", util::trim(*text), reason);
  }
  return reason;
}

// A metric's @FILE on a host is brought back after each repeat: only from under the working
// directory.
void check_result_files_fetchable(const RunPlan& plan)
{
  for (const auto& metric : plan.metrics) {
    if (!metric.file.empty()) {
      remote::check_fetchable(metric.name, metric.file);
    }
  }
}

// What this run was asked beyond the benchmark's revision, kept with its outputs.
nlohmann::json run_options_json(const RunRequest& request)
{
  auto out = nlohmann::json::object();
  if (request.repeats.warmups) {
    out["warmup"] = *request.repeats.warmups;
  }
  if (request.repeats.count) {
    out["repeat"] = *request.repeats.count;
  }
  if (!request.repeats.prepare.empty()) {
    out["prepare"] = request.repeats.prepare;
  }
  return out;
}

} // namespace

RunSession::RunSession(store::Journal& journal, const Workspace& workspace, const RunRequest& request,
                       RunObserver& observer)
    : m_journal(journal), m_workspace(workspace), m_request(request), m_observer(observer)
{
  if (!request.run_id.empty() && store::number_of_run(journal.db(), request.run_id) != 0) {
    throw Error("a run with the id {} is recorded already", request.run_id);
  }
  const auto bench = request.revision
                         ? store::find_bench_revision(journal.db(), request.bench, *request.revision)
                         : store::find_benchmark(journal.db(), request.bench);
  if (!bench && request.revision && store::find_benchmark(journal.db(), request.bench)) {
    throw UsageError("benchmark {} has no revision {}; see 'ej bench show {}'", request.bench,
                     *request.revision, request.bench);
  }
  if (!bench) {
    throw Error(
        "no benchmark named '{}'; register it with 'ej bench add {} ... -- COMMAND' (see 'ej bench list')",
        request.bench, request.bench);
  }
  m_bench = *bench;
  if (request.attempt && !store::find_attempt(journal.db(), *request.attempt)) {
    throw Error("there is no attempt {}; see 'ej log'", core::number_label(*request.attempt));
  }
  if (request.repeats.count && *request.repeats.count < 1) {
    throw UsageError("--repeat must be at least 1");
  }
  if (request.repeats.warmups && *request.repeats.warmups < 0) {
    throw UsageError("--warmup must be 0 or more");
  }
  m_plan.bench = m_bench.name;
  std::vector<std::string> damage;
  m_plan.definition = core::bench_definition_from_json(m_bench.definition, damage);
  if (!damage.empty()) {
    throw Error(
        "benchmark '{}' revision {} is damaged: {}; store a repaired revision with 'ej bench edit {}' and "
        "those options before running it",
        m_bench.name, m_bench.revision, fmt::join(damage, "; "), m_bench.name);
  }
  m_plan.metrics = measure::metric_specs(m_plan.definition);
  measure::max_values_per_repeat(); // a wrong EJ_MAX_SAMPLES is said before the run starts
  m_plan.combinations =
      core::param_combinations(m_plan.definition.params, chosen_params(request.params, m_plan.definition));
  m_plan.extra_env = request.env;
  journal.redactor().add_variables(m_plan.extra_env); // --env HF_TOKEN=... never reaches the journal
  journal.redactor().add_variables(m_plan.definition.env);
  m_plan.repeats = request.repeats;
  m_plan.observer = &m_progress;
  m_gpus = chosen_gpus(request.gpus, m_plan);
}

RunResult RunSession::run(const git::CodeState& code_state, bool numbers_from_remote,
                          DetachedReport& detached)
{
  // Where the repeats run: the one place that chooses.
  RunOutcome outcome;
  if (!start(code_state, numbers_from_remote, detached)) {
    outcome = build_failure();
  } else if (m_slurm) {
    outcome = measure_on_slurm(m_journal, m_plan, *m_slurm);
  } else if (m_locks_gpus) {
    outcome = measure_here(m_journal, m_plan, std::move(m_gpu_lock), m_ticket, m_request.devices);
  } else {
    outcome = measure_run(m_journal, m_plan);
  }
  return finish(std::move(outcome));
}

bool RunSession::start(const git::CodeState& code_state, bool numbers_from_remote, DetachedReport& detached)
{
  auto& journal = m_journal;
  const auto& request = m_request;
  const auto& workspace = m_workspace;
  auto& plan = m_plan;
  m_slurm = request.slurm;
  auto& slurm = m_slurm;
  // Here, or on the host --on names (the code state shipped there first): a host that cannot be
  // reached leaves no run behind. A Slurm job runs on the cluster's file system, which is this one.
  m_target = std::make_unique<RunTarget>(workspace,
                                         slurm ? login_host_target(workspace, slurm->login_host)
                                               : (request.on.empty() ? plan.definition.host : request.on),
                                         code_state, m_observer);
  auto& target = *m_target;
  if (slurm && target.remote()) {
    slurm->via = target.command_via(); // sbatch, scontrol and scancel run on the login host
  }
  if (target.remote()) {
    check_result_files_fetchable(plan);
  }
  if (request.devices.lock_clocks && (slurm || target.remote())) {
    throw UsageError("--lock-clocks locks this machine's GPUs; on another host lock them there (nvidia-smi "
                     "-lgc) before the run");
  }
  // The GPUs are tried before the run is recorded, so that --no-wait leaves no run behind. Slurm
  // gives its jobs their GPUs itself. The locks of an ssh host are kept here under its name: they
  // keep apart the runs that this machine starts there (not those another machine's ej starts).
  m_ticket = gpu_ticket(m_gpus, m_bench.name, workspace.work_tree.string(),
                        target.remote() ? target.on().value("hostname", "") : std::string());
  const auto& ticket = m_ticket;
  m_locks_gpus = !slurm && !request.gpus_held_by_other;
  if (m_locks_gpus) {
    if (const auto holder = run::GpuLock::held_by_ancestor(run::default_lock_dir(), ticket)) {
      // Waiting for the run that started this one would wait for ever; GPUs beyond its hold are not
      // this run's to take unlocked.
      if (!holder->gpus.covers(ticket.gpus)) {
        throw Error("this run would use {} while {}, whose benchmark started this ej, holds {}: it "
                    "cannot wait for the run it is part of; give it --gpus within the outer run's GPUs",
                    run::describe(ticket.gpus), run::describe(*holder, ticket.journal),
                    run::describe(holder->gpus));
      }
      m_locks_gpus = false;
      m_observer.message(fmt::format("ej: measuring inside the hold of {}, whose benchmark started this ej; "
                                     "this run neither waits for GPUs nor samples them",
                                     run::describe(*holder, ticket.journal)));
    }
  }
  if (m_locks_gpus) {
    m_gpu_lock = run::GpuLock::try_acquire(run::default_lock_dir(), ticket);
    if (!m_gpu_lock && request.no_wait) {
      refuse_busy_gpus(ticket);
    }
  }
  plan.work_tree = target.work_tree();
  plan.host = &target.host();
  // The environment is captured before the run is recorded, so a probe that hangs cannot leave a
  // run behind; the run record exists before the benchmark starts.
  auto env_options = environment_options(journal, plan);
  env_options.gpu_clocks = clocks_policy(request.devices);
  const auto snapshot = target.snapshot(env_options);
  for (const auto& warning : run::gpu_warnings(snapshot.fingerprint)) {
    m_observer.message(fmt::format("ej: warning: {}", warning));
  }
  journal.write([&](store::Writer& writer) {
    store::events::RunStarted started;
    started.number = numbers_from_remote ? 0 : store::next_run_number(journal.db());
    started.bench = m_bench.name;
    started.revision = m_bench.revision;
    started.bench_revision = store::events::Ref::to(m_bench.event_id);
    if (request.attempt) {
      started.attempt = store::events::Ref::to(store::find_attempt(journal.db(), *request.attempt)->id);
    }
    started.label = request.label;
    started.params = chosen_params_json(plan.combinations);
    started.git = store_code_state(writer, code_state);
    started.env_blob = writer.put_blob(snapshot.fingerprint.dump());
    started.env_readings = snapshot.readings;
    started.host = this_host();
    started.pid = static_cast<std::int64_t>(::getpid());
    started.pid_start_ticks = run::process_start_ticks(::getpid()).value_or(0);
    started.boot_id = this_boot_id();
    started.on = target.on(); // null here; "host" stays this machine: the ej that must end the run
    started.env = recorded_env(plan.extra_env);
    plan.run_id = writer.append(started, request.run_id).id;
    plan.run_number = store::number_of_run(journal.db(), plan.run_id);
  });
  m_observer.message(fmt::format(
      "ej: run {} of {} r{}{}", core::number_label(plan.run_number), m_bench.name, m_bench.revision,
      request.attempt ? fmt::format(" for attempt {}", core::number_label(*request.attempt)) : ""));
  detached.run_recorded(workspace, plan.run_number);
  m_progress.attach(progress_note_path(workspace, plan.run_id));

  // Elsewhere the GPUs are read on the host, beside each repeat: on an ssh host that has them, on
  // any Slurm node (whose GPUs the login node's snapshot cannot tell; it writes to the cluster's
  // file system: this one, or the login host's for slurm@HOST).
  if ((slurm || (target.remote() && run::has_gpus(snapshot.fingerprint))) && request.devices.sample_ms > 0) {
    plan.host_sampling = run::HostSampling{
        request.devices.sample_ms, m_gpus.all ? std::string() : util::join(m_gpus.devices, ","),
        slurm && !target.remote()
            ? (workspace.ej_dir / ("gpu-" + plan.run_id + ".csv")).string()
            : (target.work_tree().parent_path() / ("ej-gpu-" + plan.run_id + ".csv")).string()};
  }
  if (!request.guarded_by_caller) {
    m_interrupt_guard.emplace();
  }
  m_progress.set_phase("building");
  m_build = run_build_step(target, plan, m_bench.name, code_state_id(code_state), request.no_build);
  return !m_build.failed;
}

RunOutcome RunSession::build_failure() const
{
  RunOutcome outcome;
  outcome.status =
      run::InterruptGuard::interrupted() ? core::RunStatus::Interrupted : core::RunStatus::BuildFailed;
  outcome.reason = m_journal.redactor().redact(m_build.reason);
  return outcome;
}

RunOutcome RunSession::measure_block(const core::ParamValues& combination, int warmups, int repeats,
                                     run::RunContainment* containment, std::vector<std::string>& said)
{
  if (m_slurm && m_plan.launch_prefix.empty()) {
    throw Error("run {} is to measure in a Slurm job, and none was given to it",
                core::number_label(m_plan.run_number));
  }
  m_progress.planned_unknown(); // the session decides block by block
  if (m_locks_gpus && !m_gpu_lock) {
    m_ticket.run = m_plan.run_number;
    m_gpu_lock = wait_for_gpus(m_ticket, *m_plan.observer); // held until the session goes
    if (!m_gpu_lock) {
      RunOutcome outcome;
      outcome.status = core::RunStatus::Interrupted;
      outcome.reason = fmt::format("interrupted while waiting for {}; nothing more was measured",
                                   run::describe(m_ticket.gpus));
      return outcome;
    }
  }
  if (m_locks_gpus && !m_devices) {
    m_gpu_lock->set_run(m_plan.run_number);
    try {
      m_devices.emplace(m_ticket.gpus, m_request.devices, *m_plan.observer); // once the GPUs are this run's
    } catch (const Error& error) {
      RunOutcome outcome;
      outcome.status = core::RunStatus::Failed;
      outcome.reason = error.what();
      return outcome;
    }
  }
  auto block = m_plan;
  block.sampler = m_devices ? m_devices->sampler() : nullptr;
  block.combinations = {combination};
  block.repeats.warmups = warmups;
  block.repeats.count = repeats;
  block.first_repeat_index = m_next_index;
  block.containment = containment;
  block.said = &said;
  if (!m_writer) {
    m_writer.emplace(m_journal, m_plan.run_number, m_plan.run_id, *m_plan.observer);
  }
  block.writer = &*m_writer;
  auto outcome = measure_run(m_journal, block);
  m_next_index += outcome.records;
  // The last block's outcome is the run's: it counts what every block left running.
  if (const auto found = outcome.outputs.find("leftovers"); found != outcome.outputs.end()) {
    m_leftovers.processes += found->at("processes").get<int>();
    m_leftovers.found_by = found->at("found_by").get<std::string>();
    (*found)["processes"] = m_leftovers.processes;
  }
  return outcome;
}

RunSession::~RunSession()
{
  // A session left by an error still writes the repeats it measured; the run stays 'started' for
  // the next ej to end, as any run whose ej stopped.
  if (m_writer && std::uncaught_exceptions() > 0) {
    try {
      m_writer->flush();
    } catch (const Error& error) {
      m_observer.message(fmt::format("ej: {}", error.what()));
    }
  }
}

void RunSession::flush_repeats()
{
  if (m_writer) {
    m_writer->flush();
  }
}

RunResult RunSession::finish(RunOutcome outcome)
{
  flush_repeats();
  auto& journal = m_journal;
  const auto& request = m_request;
  const auto& workspace = m_workspace;
  auto& plan = m_plan;
  const auto& slurm = m_slurm;
  const auto& build = m_build;
  if (outcome.status == core::RunStatus::Interrupted) {
    outcome.reason = interruption_reason(workspace, plan.run_number, outcome.reason);
  }
  if (slurm && !m_target->remote() && plan.host_sampling) {
    std::error_code ignored;
    std::filesystem::remove(plan.host_sampling->file, ignored);
  }
  std::optional<core::RunStatus> ended_by_other;
  journal.write([&](store::Writer& writer) {
    // One ending per run: another ej that took this one for abandoned has ended it already.
    const auto current = store::find_run(journal.db(), plan.run_number);
    if (current && current->status != core::RunStatus::Started) {
      ended_by_other = current->status;
      return;
    }
    auto outputs = outcome.outputs;
    if (const auto asked = run_options_json(request); !asked.empty()) {
      outputs["options"] = asked;
    }
    if (!outcome.last_stdout.empty() || !outcome.last_stderr.empty()) {
      outputs["stdout_blob"] = writer.put_blob(outcome.last_stdout);
      outputs["stderr_blob"] = writer.put_blob(outcome.last_stderr);
    }
    if (!outcome.check_output.empty() || outcome.status == core::RunStatus::CheckFailed) {
      outputs["check_blob"] = writer.put_blob(outcome.check_output);
    }
    if (!build.record.empty()) {
      outputs["build"] = build.record;
      if (build.ran) {
        outputs["build"]["log_blob"] = writer.put_blob(journal.redactor().redact(build.log));
      }
    }
    writer.append(store::events::RunFinished{store::events::Ref::to(plan.run_id), outcome.status,
                                             outcome.reason, outputs});
  });
  m_progress.detach();
  if (ended_by_other) {
    m_observer.message(fmt::format("ej: run {} was recorded as {} by another ej meanwhile; its repeats are "
                                   "kept, its ending stays",
                                   core::number_label(plan.run_number), core::to_string(*ended_by_other)));
  }
  return {plan.run_number, outcome.status, journal.redactor().redact(outcome.reason)};
}

} // namespace ej::measuring
