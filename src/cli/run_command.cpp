#include "cli/commands.h"
#include "cli/detach.h"
#include "cli/run_progress.h"
#include "cli/run_summary_output.h"
#include "cli/run_target.h"
#include "cli/workspace.h"
#include "core/numbering.h"
#include "core/param_range.h"
#include "core/redact.h"
#include "evidence/metric_rules.h"
#include "measure/value_list.h"
#include "measuring/run_devices.h"
#include "measuring/run_gpus.h"
#include "measuring/run_inputs.h"
#include "measuring/run_loop.h"
#include "measuring/run_slurm.h"
#include "measuring/stale_runs.h"
#include "remote/host_registry.h"
#include "remote/result_fetch.h"
#include "run/environment.h"
#include "run/owner.h"
#include "run/signals.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"
#include "util/term.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

// `ej run NAME`: runs a registered benchmark and records everything about it.
namespace ej::cli {

namespace {

struct RunOptions {
  std::string bench;
  std::string attempt;
  std::vector<std::string> params;
  std::optional<int> repeat;
  std::vector<std::string> env;
  std::string label;
  std::optional<int> revision; // --revision: an earlier revision of the benchmark (ej rerun)
  bool quiet = false;
  bool show_output = false;
  std::optional<int> warmup;
  std::string prepare;
  std::string gpus;
  bool no_wait = false;
  bool detach = false;
  std::string on; // --on: slurm[:PARTITION], ssh:HOST or a host; empty: the benchmark's default
  std::vector<std::string> slurm_args; // passed to sbatch
  bool no_build = false;               // --no-build
  measuring::DeviceOptions devices;    // --gpu-sample-ms, --lock-clocks [SM_MHZ]
  std::vector<std::string> lock_mhz;   // the value of --lock-clocks, when given one
  std::string keep_untracked;          // --keep-untracked-up-to SIZE
  std::string run_id;                  // --run-id: the id chosen for it before (--detach, ej rerun)
};

// --on slurm[:PARTITION] or slurm@HOST[:PARTITION]: the Slurm job the repeats run in; nullopt for
// anywhere else.
std::optional<measuring::SlurmTarget> slurm_target(const RunOptions& options)
{
  if (options.on.empty() || options.on == "local") {
    if (!options.slurm_args.empty()) {
      throw UsageError("--slurm-arg goes with --on slurm[:PARTITION]");
    }
    return std::nullopt;
  }
  if (options.on != "slurm" && !options.on.starts_with("slurm:") && !options.on.starts_with("slurm@")) {
    if (!options.slurm_args.empty()) {
      throw UsageError("--slurm-arg goes with --on slurm[:PARTITION]");
    }
    return std::nullopt; // ssh:HOST or a host: RunTarget's
  }
  measuring::SlurmTarget target;
  auto rest = options.on.substr(5); // "", ":PARTITION", "@HOST", "@HOST:PARTITION"
  if (rest.starts_with("@")) {
    const auto colon = rest.find(':');
    target.login_host = rest.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
    rest = colon == std::string::npos ? "" : rest.substr(colon);
    if (target.login_host.empty()) {
      throw UsageError("--on slurm@HOST needs the login host: a host added with 'ej host add', or an ssh "
                       "destination (slurm@login.cluster:gpu)");
    }
  }
  target.partition = rest.empty() ? "" : rest.substr(1);
  target.sbatch_args = options.slurm_args;
  return target;
}

// What RunTarget connects to for slurm@HOST: a host added with `ej host add` (its root and
// variables), else the ssh destination; "local" for a cluster whose file system is this one.
std::string login_host_target(const measuring::Workspace& workspace, const std::string& login_host)
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
measuring::RunOutcome measure_here(store::Journal& journal, measuring::RunPlan& plan,
                                   std::unique_ptr<run::GpuLock> gpu_lock, run::LockTicket ticket,
                                   const measuring::DeviceOptions& device_options)
{
  if (gpu_lock) {
    gpu_lock->set_run(plan.run_number);
  } else {
    ticket.run = plan.run_number;
    gpu_lock = measuring::wait_for_gpus(ticket, *plan.observer); // a queued run: recorded, waiting its turn
  }
  if (!gpu_lock) {
    measuring::RunOutcome outcome;
    outcome.status = "interrupted";
    outcome.reason =
        fmt::format("interrupted while waiting for {}; nothing was measured", run::describe(ticket.gpus));
    return outcome;
  }
  std::optional<measuring::RunDevices> devices;
  try {
    devices.emplace(ticket.gpus, device_options, *plan.observer); // only once the GPUs are this run's
  } catch (const Error& error) {
    measuring::RunOutcome outcome;
    outcome.status = "failed";
    outcome.reason = error.what();
    return outcome;
  }
  plan.sampler = devices->sampler();
  auto outcome = measuring::measure_run(journal, plan);
  plan.sampler = nullptr;
  return outcome; // the clocks are reset and the lock goes: the next run may start while this one is written
}

std::map<std::string, std::vector<std::string>> chosen_params(const std::vector<std::string>& options,
                                                              const core::BenchDefinition& definition)
{
  std::map<std::string, std::vector<std::string>> chosen;
  for (const auto& option : options) {
    const auto equals = option.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == option.size()) {
      throw UsageError("--param '{}' must look like AXIS=V1,V2,...", option);
    }
    const auto name = option.substr(0, equals);
    const auto axis = std::find_if(definition.params.begin(), definition.params.end(),
                                   [&](const core::ParamAxis& a) { return a.name == name; });
    if (axis == definition.params.end()) {
      throw UsageError("the benchmark has no parameter axis '{}'; see 'ej bench show'", name);
    }
    // Only registered values: a run of another value would not be what the revision describes.
    auto& values = chosen[name];
    for (const auto& value : core::expand_param_values(option.substr(equals + 1))) {
      if (std::find(axis->values.begin(), axis->values.end(), value) == axis->values.end()) {
        throw UsageError(
            "'{}' is not a value of the axis {} ({}); add it with 'ej bench edit ... --param {}=...'", value,
            name, util::join(axis->values, ","), name);
      }
      if (std::find(values.begin(), values.end(), value) == values.end()) {
        values.push_back(value);
      }
    }
  }
  return chosen;
}

// NAME=VALUE, or NAME alone for the value ej's own environment has (what ej rerun gives for a
// secret whose value the journal does not keep).
std::vector<std::pair<std::string, std::string>> parse_env(const std::vector<std::string>& options)
{
  std::vector<std::pair<std::string, std::string>> env;
  for (const auto& option : options) {
    const auto equals = option.find('=');
    if (equals == 0 || option.empty()) {
      throw UsageError("--env '{}' must look like NAME=VALUE (or NAME, for the value of ej's environment)",
                       option);
    }
    if (equals == std::string::npos) {
      const char* value = std::getenv(option.c_str());
      if (value == nullptr) {
        throw UsageError("--env {} takes the value of {} in ej's environment, where it is not set: export it "
                         "first, or give --env {}=VALUE",
                         option, option, option);
      }
      env.emplace_back(option, value);
      continue;
    }
    env.emplace_back(option.substr(0, equals), option.substr(equals + 1));
  }
  return env;
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

run::EnvOptions environment_options(store::Journal& journal, const measuring::RunPlan& plan)
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
    options.probes.push_back(measuring::probe_from_json(name, definition, plan.work_tree));
  }
  return options;
}

// The reason an interrupted run is recorded with: `ej cancel` leaves who asked, put first.
std::string interruption_reason(const measuring::Workspace& workspace, int run, const std::string& reason)
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
void check_result_files_fetchable(const measuring::RunPlan& plan)
{
  for (const auto& metric : plan.metrics) {
    if (!metric.file.empty()) {
      remote::check_fetchable(metric.name, metric.file);
    }
  }
}

// On a terminal, hyperfine's convention: a progress line, the benchmark's output hidden unless
// --show-output (which shows it instead of the line). Elsewhere (a pipe, a file, --detach's log)
// the output passes through unless --quiet, and there is no progress line.
void choose_output(const RunOptions& options, measuring::RunPlan& plan)
{
  const bool terminal = util::is_terminal(STDERR_FILENO);
  plan.progress = terminal && !options.quiet && !options.show_output;
  plan.echo = options.show_output || (!terminal && !options.quiet);
  plan.echo_build = !options.quiet;
}

// What this run was asked beyond the benchmark's revision, kept with its outputs.
nlohmann::json run_options_json(const RunOptions& options)
{
  auto out = nlohmann::json::object();
  if (options.warmup) {
    out["warmup"] = *options.warmup;
  }
  if (options.repeat) {
    out["repeat"] = *options.repeat;
  }
  if (!options.prepare.empty()) {
    out["prepare"] = options.prepare;
  }
  return out;
}

void run_benchmark(const RunOptions& options)
{
  const auto workspace = locate_workspace();
  if (options.detach) {
    start_detached_run(workspace); // the same command line again, in the background
    return;
  }
  auto detached = DetachedReport::from_environment(); // set when this ej is that background one
  if (!options.run_id.empty() && !util::is_ulid(options.run_id)) {
    throw UsageError("--run-id '{}' is not a ULID (26 characters, as ej makes them)", options.run_id);
  }
  auto journal = open_journal(workspace);
  if (!options.run_id.empty() && store::number_of_run(journal.db(), options.run_id) != 0) {
    throw Error("a run with the id {} is recorded already", options.run_id);
  }
  const auto bench = options.revision
                         ? store::find_bench_revision(journal.db(), options.bench, *options.revision)
                         : store::find_benchmark(journal.db(), options.bench);
  if (!bench && options.revision && store::find_benchmark(journal.db(), options.bench)) {
    throw UsageError("benchmark {} has no revision {}; see 'ej bench show {}'", options.bench,
                     *options.revision, options.bench);
  }
  if (!bench) {
    throw Error(
        "no benchmark named '{}'; register it with 'ej bench add {} ... -- COMMAND' (see 'ej bench list')",
        options.bench, options.bench);
  }
  std::optional<int> attempt;
  if (!options.attempt.empty()) {
    attempt = parse_attempt_number(options.attempt);
    if (!store::find_attempt(journal.db(), *attempt)) {
      throw Error("there is no attempt {}; see 'ej log'", core::number_label(*attempt));
    }
  }
  if (options.repeat && *options.repeat < 1) {
    throw UsageError("--repeat must be at least 1");
  }
  if (options.warmup && *options.warmup < 0) {
    throw UsageError("--warmup must be 0 or more");
  }
  if (options.show_output && options.quiet) {
    throw UsageError("--show-output and --quiet contradict each other; give one");
  }
  measuring::RunPlan plan;
  plan.bench = bench->name;
  std::vector<std::string> damage;
  plan.definition = core::bench_definition_from_json(bench->definition, damage);
  if (!damage.empty()) {
    throw Error(
        "benchmark '{}' revision {} is damaged: {}; store a repaired revision with 'ej bench edit {}' and "
        "those options before running it",
        bench->name, bench->revision, fmt::join(damage, "; "), bench->name);
  }
  plan.metrics = evidence::metric_specs(plan.definition);
  measure::max_values_per_repeat(); // a wrong EJ_MAX_SAMPLES is said before the run starts
  plan.combinations =
      core::param_combinations(plan.definition.params, chosen_params(options.params, plan.definition));
  plan.extra_env = parse_env(options.env);
  journal.redactor().add_variables(plan.extra_env); // --env HF_TOKEN=... never reaches the journal
  journal.redactor().add_variables(plan.definition.env);
  plan.repeat_override = options.repeat;
  plan.warmup_override = options.warmup;
  plan.prepare = options.prepare;
  choose_output(options, plan);
  RunProgress progress(plan.progress);
  plan.observer = &progress;
  const auto label = checked_text(options.label, "label");
  auto slurm = slurm_target(options);
  const auto gpus = measuring::chosen_gpus(options.gpus, plan);
  const auto keep_untracked =
      options.keep_untracked.empty() ? 0 : parse_keep_untracked(options.keep_untracked);
  // What takes seconds comes next (the code state read and shipped, the environment captured): a
  // detached run's starter returns here, and ej wait reports what fails from now on.
  detached.accepted(workspace, options.run_id);

  const auto code_state = read_code_state(workspace, keep_untracked); // outside the write lock
  const bool from_remote = numbers_from_remote(workspace);
  // Here, or on the host --on names (the code state shipped there first): a host that cannot be
  // reached leaves no run behind. A Slurm job runs on the cluster's file system, which is this one.
  RunTarget target(workspace,
                   slurm ? login_host_target(workspace, slurm->login_host)
                         : (options.on.empty() ? plan.definition.host : options.on),
                   code_state);
  if (slurm && target.remote()) {
    slurm->via = target.command_via(); // sbatch, scontrol and scancel run on the login host
  }
  if (target.remote()) {
    check_result_files_fetchable(plan);
  }
  if (options.devices.lock_clocks && (slurm || target.remote())) {
    throw UsageError("--lock-clocks locks this machine's GPUs; on another host lock them there (nvidia-smi "
                     "-lgc) before the run");
  }
  // The GPUs are tried before the run is recorded, so that --no-wait leaves no run behind. Slurm
  // gives its jobs their GPUs itself. The locks of an ssh host are kept here under its name: they
  // keep apart the runs that this machine starts there (not those another machine's ej starts).
  const auto ticket =
      measuring::gpu_ticket(gpus, bench->name, workspace.work_tree.string(),
                            target.remote() ? target.on().value("hostname", "") : std::string());
  const bool locks_gpus = !slurm;
  std::unique_ptr<run::GpuLock> gpu_lock;
  if (locks_gpus) {
    gpu_lock = run::GpuLock::try_acquire(run::default_lock_dir(), ticket);
    if (!gpu_lock && options.no_wait) {
      measuring::refuse_busy_gpus(ticket);
    }
  }
  plan.work_tree = target.work_tree();
  plan.host = &target.host();
  // The environment is captured before the run is recorded, so a probe that hangs cannot leave a
  // run behind; the run record exists before the benchmark starts.
  auto env_options = environment_options(journal, plan);
  env_options.gpu_clocks = measuring::clocks_policy(options.devices);
  const auto snapshot = target.snapshot(env_options);
  for (const auto& warning : run::gpu_warnings(snapshot.fingerprint)) {
    fmt::print(stderr, "ej: warning: {}\n", warning);
  }
  journal.write([&](store::Writer& writer) {
    store::events::RunStarted started;
    started.number = from_remote ? 0 : store::next_run_number(journal.db());
    started.bench = bench->name;
    started.revision = bench->revision;
    started.bench_revision = store::events::Ref::to(bench->event_id);
    if (attempt) {
      started.attempt = store::events::Ref::to(store::find_attempt(journal.db(), *attempt)->id);
    }
    started.label = label;
    started.params = measuring::chosen_params_json(plan.combinations);
    started.git = store_code_state(writer, code_state);
    started.env_blob = writer.put_blob(snapshot.fingerprint.dump());
    started.env_readings = snapshot.readings;
    started.host = measuring::this_host();
    started.pid = static_cast<std::int64_t>(::getpid());
    started.pid_start_ticks = run::process_start_ticks(::getpid()).value_or(0);
    started.boot_id = measuring::this_boot_id();
    started.on = target.on(); // null here; "host" stays this machine: the ej that must end the run
    started.env = recorded_env(plan.extra_env);
    plan.run_id = writer.append(started, options.run_id).id;
    plan.run_number = store::number_of_run(journal.db(), plan.run_id);
  });
  fmt::print(stderr, "ej: run {} of {} r{}{}\n", core::number_label(plan.run_number), bench->name,
             bench->revision, attempt ? fmt::format(" for attempt {}", core::number_label(*attempt)) : "");
  detached.run_recorded(workspace, plan.run_number);

  // Elsewhere the GPUs are read on the host, beside each repeat: on an ssh host that has them, on
  // any Slurm node (whose GPUs the login node's snapshot cannot tell; it writes to the cluster's
  // file system: this one, or the login host's for slurm@HOST).
  if ((slurm || (target.remote() && run::has_gpus(snapshot.fingerprint))) && options.devices.sample_ms > 0) {
    plan.host_sampling = run::HostSampling{
        options.devices.sample_ms, gpus.all ? std::string() : util::join(gpus.devices, ","),
        slurm && !target.remote()
            ? (workspace.ej_dir / ("gpu-" + plan.run_id + ".csv")).string()
            : (target.work_tree().parent_path() / ("ej-gpu-" + plan.run_id + ".csv")).string()};
  }
  // Ctrl-C stops the benchmark, not ej: the run is still finished as interrupted below.
  run::InterruptGuard interrupt_guard;
  const auto build = run_build_step(target, plan, bench->name, code_state_id(code_state), options.no_build);
  // Where the repeats run: the one place that chooses.
  measuring::RunOutcome outcome;
  if (build.failed) {
    outcome.status = run::InterruptGuard::interrupted() ? "interrupted" : "build-failed";
    outcome.reason = journal.redactor().redact(build.reason);
  } else if (slurm) {
    outcome = measuring::measure_on_slurm(journal, plan, *slurm);
  } else if (locks_gpus) {
    outcome = measure_here(journal, plan, std::move(gpu_lock), ticket, options.devices);
  } else {
    outcome = measuring::measure_run(journal, plan);
  }
  if (outcome.status == "interrupted") {
    outcome.reason = interruption_reason(workspace, plan.run_number, outcome.reason);
  }
  if (slurm && !target.remote() && plan.host_sampling) {
    std::error_code ignored;
    std::filesystem::remove(plan.host_sampling->file, ignored);
  }
  std::string ended_by_other;
  journal.write([&](store::Writer& writer) {
    // One ending per run: another ej that took this one for abandoned has ended it already.
    const auto current = store::find_run(journal.db(), plan.run_number);
    if (current && current->status != "started") {
      ended_by_other = current->status;
      return;
    }
    auto outputs = outcome.outputs;
    if (const auto asked = run_options_json(options); !asked.empty()) {
      outputs["options"] = asked;
    }
    if (!outcome.last_stdout.empty() || !outcome.last_stderr.empty()) {
      outputs["stdout_blob"] = writer.put_blob(outcome.last_stdout);
      outputs["stderr_blob"] = writer.put_blob(outcome.last_stderr);
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
  if (!ended_by_other.empty()) {
    fmt::print(stderr,
               "ej: run {} was recorded as {} by another ej meanwhile; its repeats are kept, its ending "
               "stays\n",
               core::number_label(plan.run_number), ended_by_other);
  }
  // Interrupted by a signal to ej: exit as a signal would; by something else (a Slurm job cancelled
  // outside ej): an error like any other ending.
  if (outcome.status == "interrupted" && run::InterruptGuard::signal_number() != 0) {
    const int signal = run::InterruptGuard::signal_number();
    // After SIGHUP or SIGPIPE ej's output may be gone: the run is recorded, saying so is a bonus.
    try {
      print_run_summary(journal, plan.run_number);
    } catch (const std::exception&) {
    }
    try {
      fmt::print(stderr, "ej: run {} interrupted by SIG{}; the repeats measured before it are kept\n",
                 core::number_label(plan.run_number), ::sigabbrev_np(signal));
    } catch (const std::exception&) {
    }
    throw ExitCode{128 + signal};
  }
  print_run_summary(journal, plan.run_number);
  if (outcome.status != "finished") {
    throw Error("run {} {}: {}", core::number_label(plan.run_number), outcome.status,
                journal.redactor().redact(outcome.reason));
  }
}

} // namespace

void register_run(CLI::App& app)
{
  auto options = std::make_shared<RunOptions>();
  auto* command = app.add_subcommand("run", "Run a registered benchmark, repeatedly, and record everything");
  // Not required by CLI11: `ej run withdraw RUN` names none (checked below).
  command->add_option("bench", options->bench, "Benchmark name");
  register_run_withdraw(*command);
  command->add_option("--attempt", options->attempt, "The attempt these results belong to");
  command->add_option("--param", options->params,
                      "AXIS=V1,V2,... or MIN..MAX[:STEP]: run only these values (repeatable)");
  command->add_option("--repeat", options->repeat,
                      "Repeats per combination (overrides the benchmark's policy)");
  command->add_option("--env", options->env,
                      "NAME=VALUE for this run (repeatable), or NAME for the value in ej's environment; kept "
                      "with the run for 'ej rerun', a secret-named one redacted everywhere in the record");
  command->add_option("--label", options->label, "A note that names this run");
  command->add_option(
      "--revision", options->revision,
      "Run this earlier revision of the benchmark (what 'ej rerun' does); default: the latest");
  command->add_option("--warmup", options->warmup,
                      "Unmeasured runs before the repeats of each combination (overrides the benchmark's)");
  command->add_option("--prepare", options->prepare,
                      "A shell command run before each repeat and warmup, not timed (hyperfine's --prepare), "
                      "e.g. 'sync; echo 3 > /proc/sys/vm/drop_caches'");
  command->add_flag(
      "--show-output", options->show_output,
      "Show the benchmark's output live on a terminal (hidden there by default, behind the progress "
      "line); it is always kept in the run's capture");
  command->add_flag("--quiet", options->quiet,
                    "No progress line and no benchmark output live (a pipe gets the output by default)");
  command->add_option("--gpus", options->gpus,
                      "GPUs to use, as CUDA_VISIBLE_DEVICES takes them (0,1); the run waits until no other "
                      "ej run of this machine uses them");
  command->add_flag("--no-wait", options->no_wait,
                    "Fail at once when the GPUs are taken, instead of queueing");
  command->add_flag("--detach", options->detach,
                    "Run in the background (its own session; output in the journal's runs/ folder) and "
                    "return at once with the run's name (run @k3f9qx); 'ej wait' reports how it ends");
  command->add_option("--slurm-arg", options->slurm_args,
                      "An sbatch option for --on slurm, as given (repeatable): --slurm-arg=--gres=gpu:8");
  command->add_option(
      "--on", options->on,
      "Run on ssh:HOST, a host added with 'ej host add', slurm[:PARTITION], or "
      "slurm@HOST[:PARTITION] through a login host (default: the benchmark's --on, else here; "
      "'local': here)");
  command->add_flag("--no-build", options->no_build, "Skip the benchmark's build step");
  // The id of its run.started event, chosen by whoever starts it and names it before it is
  // recorded (ej run --detach, ej rerun): not for people.
  command->add_option("--run-id", options->run_id)->group("");
  command->add_option("--keep-untracked-up-to", options->keep_untracked,
                      "Store untracked files up to SIZE whole with the run's code state, each once by its "
                      "hash, where the diff keeps only those up to 1 MiB (e.g. --keep-untracked-up-to 200M)");
  command
      ->add_option("--gpu-sample-ms", options->devices.sample_ms,
                   "Read the GPUs' clocks, power, temperature and throttle reasons every MS during each "
                   "repeat (default 50; 0: not at all)")
      ->check(CLI::NonNegativeNumber);
  auto* lock = command
                   ->add_option("--lock-clocks", options->lock_mhz,
                                "Lock the GPUs' SM clocks for the run at SM_MHZ (default: the base clock); "
                                "needs root; reset when the run ends, also on Ctrl-C")
                   ->expected(0, 1);
  command->callback([command, options, lock] {
    if (command->got_subcommand("withdraw")) {
      return;
    }
    if (options->bench.empty()) {
      throw UsageError(
          "'ej run' needs BENCH (Benchmark name): ej run BENCH [--attempt ID] [OPTIONS], see 'ej "
          "bench list'; or 'ej run withdraw RUN --reason R' to withdraw a run");
    }
    options->devices.lock_clocks = lock->count() > 0;
    if (!options->lock_mhz.empty() && !options->lock_mhz.front().empty()) { // CLI11 gives "" for no value
      try {
        options->devices.lock_mhz = std::stoi(options->lock_mhz.front());
      } catch (const std::exception&) {
        throw UsageError("--lock-clocks takes an SM clock in MHz (1500), or nothing for the base clock");
      }
      if (*options->devices.lock_mhz <= 0) {
        throw UsageError("--lock-clocks takes an SM clock in MHz (1500), or nothing for the base clock");
      }
    }
    run_benchmark(*options);
  });
}

} // namespace ej::cli
