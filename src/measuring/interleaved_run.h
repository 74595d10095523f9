#pragma once

#include "git/repository.h"
#include "measuring/detach.h"
#include "measuring/run_benchmark.h"
#include "measuring/run_observer.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <cstdint>
#include <optional>
#include <string>

// `ej run BENCH --against REF`: the candidate and the reference measured in the same session, in
// rounds of one repeat (or a block) of each side in an order drawn at random per round from a
// recorded seed, so that the machine's drift falls inside rounds, where the paired verdict
// cancels it, rather than between the two runs. Both sides are ordinary runs (each repeat a fresh
// process, each side built in its own work tree) tied by one comparison.interleaved event.
namespace ej::measuring {

struct InterleavedRequest {
  RunRequest candidate; // what `ej run` was asked: the work tree's side, its attempt and label
  RunRequest reference; // the same benchmark, revision, parameters and environment: the reference's attempt
  std::string reference_name;                   // as the user named it ("baseline", "r5", "HEAD~1")
  std::string candidate_name = "the work tree"; // as messages say it
  std::optional<int> rounds;         // fixed rounds (--repeat); default: the benchmark's repeat count
  int block = 1;                     // repeats of each side per round
  std::optional<std::uint64_t> seed; // --seed: replays a recorded order; nullopt: drawn
  bool until_decisive = false;
  std::optional<int> max_rounds; // --until-decisive's plan; default k_default_max_rounds
  std::optional<double> budget_s;
  double alpha = 0.05;
  std::string purpose; // "calibration" (ej calibrate's A/A session), "bisect"; recorded with the comparison
  // What --until-decisive decides on, recorded with the comparison so that its verdict is judged
  // the same way: the metric (default the benchmark's primary one) and the minimum effect (default
  // the benchmark's). ej bisect asks which side of a step a commit is on: half the step.
  std::string metric;
  std::optional<double> min_effect_pct;
};

inline constexpr int k_default_max_rounds = 100;

struct InterleavedResult {
  RunResult candidate;
  RunResult reference;
  std::string comparison_id; // the comparison.interleaved event; empty when none was written
  std::uint64_t seed = 0;
  int rounds = 0; // done, over every combination
  core::SessionStop stopped = core::SessionStop::Rounds;
  // The side whose run failed first and stopped the session (the other says it was stopped).
  enum class Side { None, Candidate, Reference };
  Side failed = Side::None;
};

class InterleavedSession {
public:
  // Reads the benchmark for both sides and checks the request (throws ej::Error or UsageError);
  // nothing is recorded yet. `reference_workspace`'s work tree holds the reference's code state.
  InterleavedSession(store::Journal& journal, const Workspace& workspace,
                     const Workspace& reference_workspace, InterleavedRequest request, RunObserver& observer);
  ~InterleavedSession();
  InterleavedSession(const InterleavedSession&) = delete;
  InterleavedSession& operator=(const InterleavedSession&) = delete;

  // Records and builds both sides (candidate first), measures the rounds (on Slurm, all of them
  // steps of one job) and records how both ended and the comparison. The caller holds a run::InterruptGuard:
  // a signal ends both runs.
  InterleavedResult run(const git::CodeState& candidate_code, const git::CodeState& reference_code,
                        bool numbers_from_remote, DetachedReport& detached);

private:
  class Observer;
  store::Journal& m_journal;
  InterleavedRequest m_request;
  RunObserver& m_user_observer;
  std::unique_ptr<Observer> m_observer; // the blocks' events turned into one session's
  std::unique_ptr<RunSession> m_candidate;
  std::unique_ptr<RunSession> m_reference;
};

} // namespace ej::measuring
