#pragma once

#include "core/bench_definition.h"
#include "core/run_states.h"
#include "measure/metric_spec.h"
#include "measuring/run_observer.h"
#include "run/gpu_sampler.h"
#include "run/host.h"
#include "run/host_sampling.h"
#include "run/run_cgroup.h"
#include "store/journal.h"

#include <filesystem>
#include <string>
#include <vector>

// The measuring part of `ej run`: repeats of every parameter combination, with extraction after
// each repeat and the samples written to the journal in batches as they come.
namespace ej::measuring {

class RepeatWriter;

// How the repeats of a run go beyond what its benchmark defines (ej run --repeat, --warmup,
// --prepare) and what is shown while they run: a request carries them to its plan as they are.
struct RepeatOptions {
  std::optional<int> count;   // instead of the benchmark's
  std::optional<int> warmups; // likewise
  std::string prepare;        // a shell command before each repeat, untimed
  bool echo = true;           // the benchmark's output live on ej's stdout/stderr
  bool echo_build = true;     // the build step's
  bool progress = false;      // the observer draws a progress line: it is given the median
};

struct RunPlan {
  int run_number = 0;
  std::string run_id; // the id of its run.started event
  std::string bench;  // the benchmark's name, for advice in messages
  core::BenchDefinition definition;
  std::vector<measure::MetricSpec> metrics;
  std::vector<core::ParamValues> combinations;
  std::vector<std::pair<std::string, std::string>> extra_env; // ej run --env
  std::filesystem::path work_tree;                            // on the host
  run::Host* host = nullptr;                                  // where the repeats run
  RepeatOptions repeats;
  RunObserver* observer = &silent_observer(); // hears how the run goes
  // Put before each repeat's command: "srun --jobid=J ... --" runs it as a step of a Slurm job.
  std::vector<std::string> launch_prefix;
  run::GpuSampler* sampler = nullptr;             // reads the GPUs during each repeat; null: none is read
  std::optional<run::HostSampling> host_sampling; // ...or nvidia-smi on the host beside each repeat
  // The index of the first repeat recorded: an interleaved run measures in blocks, one call each,
  // whose repeats follow the last block's.
  int first_repeat_index = 0;
  // The session's containment, kept across its blocks (swept after each, never left): null, the
  // run makes its own where it runs on this machine.
  run::RunContainment* containment = nullptr;
  // The session's writer, likewise, which the session flushes: null, the run writes its own and
  // flushes it at the end. A block of one repeat would otherwise cost a commit of its own.
  RepeatWriter* writer = nullptr;
  // What the run told the user once (a glob's choice of file, a metric's direction), kept across
  // the session's blocks and both its sides: null, the run keeps its own.
  std::vector<std::string>* said = nullptr;
};

struct RunOutcome {
  core::RunStatus status = core::RunStatus::Finished; // or failed, timeout, extract-error, interrupted
  std::string reason;
  nlohmann::json outputs = nlohmann::json::object(); // byte counts of the last repeat's output
  std::string last_stdout;                           // bounded captures of the last repeat
  std::string last_stderr;
  int repeats = 0;
  int records = 0; // repeats recorded, warmups and stopped ones included
  // The --check command's output when it failed (stdout, then stderr), kept with the run.
  std::string check_output;
};

RunOutcome measure_run(store::Journal& journal, const RunPlan& plan);

} // namespace ej::measuring
