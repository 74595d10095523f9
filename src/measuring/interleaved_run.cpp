#include "measuring/interleaved_run.h"

#include "core/numbering.h"
#include "measure/alpha_spending.h"
#include "measure/direction.h"
#include "measure/paired.h"
#include "measure/statistics.h"
#include "measure/until_decisive.h"
#include "measuring/interleaved_pairs.h"
#include "measuring/output_digests.h"
#include "measuring/run_slurm.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <random>

namespace ej::measuring {

// The blocks of both sides measured as one session: the front end hears of one run start, one
// combination at a time with all its repeats counted, and one ending.
class InterleavedSession::Observer final : public RunObserver {
public:
  explicit Observer(RunObserver& user) : m_user(user) {}

  void session_started(const RunShape& shape)
  {
    m_shape = shape;
    m_started = true;
    m_user.run_started(shape);
  }
  void combination(int index, const std::string& label, int repeats)
  {
    m_repeat = 0;
    m_user.combination_started(index, label, repeats);
  }
  void session_ended()
  {
    if (m_started) {
      m_started = false;
      m_user.run_ended();
    }
  }

  void run_started(const RunShape& shape) override { m_shape.unit = shape.unit; }
  void combination_started(int, const std::string&, int) override {}
  void repeat_started(int, bool warmup) override { m_user.repeat_started(++m_repeat, warmup); }
  void repeat_ended(std::optional<double> median) override { m_user.repeat_ended(median); }
  void output(std::string_view chunk) override { m_user.output(chunk); }
  void message(std::string_view line) override { m_user.message(line); }
  void run_ended() override {}

private:
  RunObserver& m_user;
  RunShape m_shape;
  bool m_started = false;
  int m_repeat = 0;
};

namespace {

using Round = store::events::ComparisonInterleaved::Round;

// Fisher-Yates with the engine's own numbers: std::shuffle's draws differ between standard
// libraries, and a recorded seed must replay the same order anywhere.
std::vector<std::size_t> shuffled(std::size_t count, std::mt19937_64& engine)
{
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = count; i > 1; --i) {
    std::swap(order[i - 1], order[engine() % i]);
  }
  return order;
}

bool finished(const RunOutcome& outcome)
{
  return outcome.status == core::RunStatus::Finished;
}

// A metric's direction for values in `unit`.
measure::Direction metric_direction(const RunPlan& plan, const std::string& metric, const std::string& unit)
{
  for (const auto& spec : plan.metrics) {
    if (spec.name == metric) {
      return measure::judged_better(spec, unit);
    }
  }
  return measure::Direction::LowerIsBetter; // wall_s
}

// Whether every series of the primary metric of this combination's rounds is decided, by the
// repeated intervals of measure::UntilDecisive (alpha spent over the planned rounds).
struct Look {
  measure::Decision decision = measure::Decision::GoOn;
  std::optional<std::size_t> rounds_needed;
};

Look look(store::Database& db, const RunPlan& plan, const InterleavedRequest& request, int candidate,
          int reference, const std::vector<Round>& rounds, int max_rounds)
{
  const auto primary = !request.metric.empty()           ? request.metric
                       : plan.definition.primary.empty() ? std::string("wall_s")
                                                         : plan.definition.primary;
  Look out;
  bool any = false;
  bool all_decided = true;
  for (const auto& series : paired_series(db, candidate, reference, rounds)) {
    if (series.metric != primary) {
      continue;
    }
    any = true;
    const auto paired = measure::paired_values(series.candidate, series.reference);
    measure::UntilDecisiveOptions options;
    options.direction = metric_direction(plan, primary, series.unit);
    options.min_effect =
        measure::effect_band(paired.scale, request.min_effect_pct.value_or(plan.definition.min_effect_pct),
                             std::abs(measure::median(series.reference)));
    options.alpha = request.alpha;
    options.max_rounds = static_cast<std::size_t>(max_rounds);
    measure::UntilDecisive rule(options);
    for (const double value : paired.values) {
      rule.add(value);
    }
    const auto state = rule.state();
    if (state.decision == measure::Decision::GoOn || state.decision == measure::Decision::Inconclusive) {
      all_decided = false;
      out.decision = state.decision;
      if (state.rounds_needed) {
        out.rounds_needed = std::max(out.rounds_needed.value_or(0), *state.rounds_needed);
      }
    } else if (all_decided) {
      out.decision = state.decision; // the last decided series speaks while all are decided
    }
  }
  if (!any) {
    out.decision = measure::Decision::GoOn;
  }
  return out;
}

} // namespace

InterleavedSession::InterleavedSession(store::Journal& journal, const Workspace& workspace,
                                       const Workspace& reference_workspace, InterleavedRequest request,
                                       RunObserver& observer)
    : m_journal(journal), m_request(std::move(request)), m_user_observer(observer),
      m_observer(std::make_unique<Observer>(observer))
{
  if (m_request.block < 1) {
    throw UsageError("--block must be at least 1");
  }
  if (m_request.rounds && *m_request.rounds < 1) {
    throw UsageError("--repeat must be at least 1");
  }
  if (m_request.until_decisive) {
    const int max_rounds = m_request.max_rounds.value_or(k_default_max_rounds);
    if (max_rounds < 1 || max_rounds > static_cast<int>(measure::k_max_planned_rounds)) {
      throw UsageError("--max-rounds must be between 1 and {}", measure::k_max_planned_rounds);
    }
    if (m_request.rounds) {
      throw UsageError("--repeat gives a fixed number of rounds; with --until-decisive give --max-rounds");
    }
  } else if (m_request.max_rounds || m_request.budget_s) {
    throw UsageError("--max-rounds and --budget go with --until-decisive");
  }
  if (m_request.budget_s && *m_request.budget_s <= 0) {
    throw UsageError("--budget must be more than 0 seconds");
  }
  // Both sides take the same repeats, one block at a time: the rounds replace --repeat.
  m_request.candidate.repeats.count.reset();
  m_request.reference.repeats.count.reset();
  m_request.reference.gpus_held_by_other = true; // the candidate's lock covers the whole session
  m_request.candidate.guarded_by_caller = true;
  m_request.reference.guarded_by_caller = true;
  m_candidate = std::make_unique<RunSession>(journal, workspace, m_request.candidate, *m_observer);
  m_reference = std::make_unique<RunSession>(journal, reference_workspace, m_request.reference, *m_observer);
  if (m_candidate->bench().revision != m_reference->bench().revision) {
    throw Error("the two sides read different revisions of benchmark {}", m_request.candidate.bench);
  }
  if (!m_request.metric.empty() && m_request.metric != "wall_s") {
    const auto& metrics = m_candidate->plan().metrics;
    if (std::none_of(metrics.begin(), metrics.end(),
                     [&](const measure::MetricSpec& spec) { return spec.name == m_request.metric; })) {
      std::vector<std::string> names{"wall_s"};
      for (const auto& spec : metrics) {
        names.push_back(spec.name);
      }
      throw UsageError("--metric {}: benchmark {} measures no such metric; it measures {}", m_request.metric,
                       m_request.candidate.bench, fmt::format("{}", fmt::join(names, ", ")));
    }
  }
  if (m_request.min_effect_pct && !(*m_request.min_effect_pct >= 0 && *m_request.min_effect_pct < 100)) {
    throw UsageError("the minimum effect must be at least 0% and below 100%, not {}%",
                     *m_request.min_effect_pct);
  }
}

InterleavedSession::~InterleavedSession() = default;

InterleavedResult InterleavedSession::run(const git::CodeState& candidate_code,
                                          const git::CodeState& reference_code, bool numbers_from_remote,
                                          DetachedReport& detached)
{
  InterleavedResult result;
  result.seed = m_request.seed ? *m_request.seed
                               : (std::uint64_t{std::random_device{}()} << 32U) ^ std::random_device{}();
  std::mt19937_64 engine(result.seed);
  auto& candidate = *m_candidate;
  auto& reference = *m_reference;
  const auto& plan = candidate.plan();
  const auto& policy = plan.definition.policy;
  const int warmups = m_request.candidate.repeats.warmups.value_or(policy.warmup);
  const int planned = m_request.until_decisive ? m_request.max_rounds.value_or(k_default_max_rounds)
                                               : m_request.rounds.value_or(policy.repeat);
  const int block = m_request.block;

  // The candidate first: the reference's label names it.
  const bool candidate_built = candidate.start(candidate_code, numbers_from_remote, detached);
  reference.set_label(fmt::format("{}interleaved with run {}",
                                  m_request.reference.label.empty() ? "" : m_request.reference.label + "; ",
                                  core::number_label(candidate.run_number())));
  DetachedReport none;
  const bool reference_built = reference.start(reference_code, numbers_from_remote, none);
  m_observer->message(
      fmt::format("ej: interleaving run {} ({}) with run {} ({}): {} round{} of {} "
                  "repeat{} a side, seed {}",
                  core::number_label(candidate.run_number()), m_request.candidate_name,
                  core::number_label(reference.run_number()), m_request.reference_name,
                  m_request.until_decisive ? fmt::format("up to {}", planned) : std::to_string(planned),
                  planned == 1 ? "" : "s", block, block == 1 ? "" : "s", result.seed));

  RunOutcome candidate_outcome;
  RunOutcome reference_outcome;
  candidate_outcome.status = reference_outcome.status = core::RunStatus::Finished;
  std::vector<Round> rounds;
  result.stopped = m_request.until_decisive ? core::SessionStop::MaxRounds : core::SessionStop::Rounds;
  // A side that fails stops the session; the other side says why it stopped.
  const auto stop_other = [&](RunOutcome& other, const RunOutcome& failed, const RunSession& failed_side) {
    result.failed =
        &failed_side == &candidate ? InterleavedResult::Side::Candidate : InterleavedResult::Side::Reference;
    other.status = failed.status == core::RunStatus::Interrupted ? core::RunStatus::Interrupted
                                                                 : core::RunStatus::Failed;
    other.reason = fmt::format("the interleaved session stopped: run {} {}",
                               core::number_label(failed_side.run_number()), core::to_string(failed.status));
    result.stopped = core::SessionStop::Failed;
  };
  // On Slurm both sides measure in one job, submitted once both are built: every repeat of every
  // round is a step of it, and its ending (a time limit, a scancel) is both runs'.
  std::optional<SlurmRunJob> job;
  std::optional<RunOutcome> job_not_running;
  if (candidate_built && reference_built && candidate.slurm()) {
    job.emplace(*candidate.slurm(), std::vector{candidate.run_number(), reference.run_number()}, *m_observer);
    job_not_running = job->start();
    if (!job_not_running) {
      candidate.set_launch_prefix(job->step_prefix());
      reference.set_launch_prefix(job->step_prefix());
    }
  }
  if (job_not_running) {
    candidate_outcome = reference_outcome = *job_not_running;
    result.stopped = core::SessionStop::Failed; // neither side's doing: result.failed stays None
  } else if (!candidate_built || !reference_built) {
    if (!candidate_built) {
      candidate_outcome = candidate.build_failure();
    }
    if (!reference_built) {
      reference_outcome = reference.build_failure();
    }
    if (candidate_built) {
      stop_other(candidate_outcome, reference_outcome, reference);
    }
    if (reference_built) {
      stop_other(reference_outcome, candidate_outcome, candidate);
    }
    if (!candidate_built && !reference_built) {
      result.failed = InterleavedResult::Side::Candidate; // built first
    }
    result.stopped = core::SessionStop::Failed;
  } else {
    const int combinations = static_cast<int>(plan.combinations.size());
    m_observer->session_started({plan.definition.primary.empty() ? "wall_s" : plan.definition.primary, "",
                                 combinations, combinations * 2 * (warmups + planned * block)});
    const auto started_ns = util::monotonic_ns();
    const auto order = shuffled(plan.combinations.size(), engine);
    // One containment for both sides and every block, left when the session ends.
    std::optional<run::RunContainment> containment;
    std::vector<std::string> said; // notes told once a session, not once a block and side
    if (plan.host->is_this_machine()) {
      containment.emplace();
    }
    bool failed = false;
    int index = 0;
    for (const auto which : order) {
      const auto& combination = plan.combinations[which];
      m_observer->combination(++index, core::describe(combination), 2 * (warmups + planned * block));
      // The warmups of each side before the combination's first round.
      const auto block_of = [&](RunSession& side, RunOutcome& outcome, int warm, int repeats) {
        auto measured =
            side.measure_block(combination, warm, repeats, containment ? &*containment : nullptr, said);
        if (!finished(measured)) {
          outcome = measured;
          failed = true;
          return;
        }
        if (const auto earlier = outcome.outputs.find("same_output"); earlier != outcome.outputs.end()) {
          measured.outputs["same_output"] =
              merged_digests(*earlier, measured.outputs.value("same_output", nlohmann::json()));
        }
        outcome = std::move(measured);
      };
      if (warmups > 0) {
        block_of(candidate, candidate_outcome, warmups, 0);
        if (!failed) {
          block_of(reference, reference_outcome, warmups, 0);
        }
      }
      std::vector<Round> these;
      for (int r = 0; r < planned && !failed; ++r) {
        if (m_request.budget_s &&
            static_cast<double>(util::monotonic_ns() - started_ns) / 1e9 >= *m_request.budget_s) {
          result.stopped = core::SessionStop::Budget;
          break;
        }
        Round round;
        round.params = nlohmann::json(combination).dump();
        round.reference_first = (engine() & 1U) != 0;
        const auto measure_side = [&](bool is_reference) {
          auto& side = is_reference ? reference : candidate;
          auto& outcome = is_reference ? reference_outcome : candidate_outcome;
          const int first = side.next_repeat_index();
          block_of(side, outcome, 0, block);
          (is_reference ? round.reference_first_index : round.candidate_first) = first;
          (is_reference ? round.reference_end : round.candidate_end) = side.next_repeat_index();
        };
        measure_side(round.reference_first);
        if (!failed) {
          measure_side(!round.reference_first);
        }
        if (failed) {
          break;
        }
        these.push_back(round);
        rounds.push_back(round);
        ++result.rounds;
        if (m_request.until_decisive) {
          candidate.flush_repeats(); // look() reads the rounds from the journal
          reference.flush_repeats();
          const auto state = look(m_journal.db(), plan, m_request, candidate.run_number(),
                                  reference.run_number(), these, planned);
          if (state.decision != measure::Decision::GoOn &&
              state.decision != measure::Decision::Inconclusive) {
            m_observer->message(fmt::format(
                "ej: {}{}: decisive after {} round{} ({})", m_request.candidate.bench,
                core::describe(combination).empty() ? "" : " (" + core::describe(combination) + ")",
                these.size(), these.size() == 1 ? "" : "s", measure::to_string(state.decision)));
            result.stopped = core::SessionStop::Decisive;
            break;
          }
          if (state.decision == measure::Decision::Inconclusive && state.rounds_needed) {
            m_observer->message(
                fmt::format("ej: not decisive after {} rounds, the planned maximum; a decision "
                            "would likely need about {} rounds (--max-rounds)",
                            these.size(), *state.rounds_needed));
          }
        }
      }
      if (failed || result.stopped == core::SessionStop::Budget) {
        break;
      }
    }
    if (failed) {
      // The job's ending first, so that the other side says how the failed one really ended.
      const bool candidate_failed = !finished(candidate_outcome);
      auto& failed_outcome = candidate_failed ? candidate_outcome : reference_outcome;
      auto& other_outcome = candidate_failed ? reference_outcome : candidate_outcome;
      if (job) {
        job->say_ending(failed_outcome);
      }
      stop_other(other_outcome, failed_outcome, candidate_failed ? candidate : reference);
      if (job) {
        job->say_ending(other_outcome);
      }
    }
    m_observer->session_ended();
  }
  if (job) {
    job->release({&candidate_outcome, &reference_outcome});
  }
  // The candidate's ending last: who waits for it (ej wait, the MCP wait tool: a detached session is
  // named by its candidate) then finds the reference ended and the comparison recorded.
  candidate.flush_repeats();
  result.reference = reference.finish(std::move(reference_outcome));
  if (!rounds.empty()) {
    store::events::ComparisonInterleaved comparison;
    comparison.candidate = store::events::Ref::to(candidate.run_id());
    comparison.reference = store::events::Ref::to(reference.run_id());
    comparison.reference_name = m_request.reference_name;
    comparison.seed = std::to_string(result.seed);
    comparison.block = block;
    comparison.warmup = warmups;
    comparison.max_rounds = m_request.until_decisive ? planned : 0;
    comparison.alpha = m_request.alpha;
    comparison.stopped = result.stopped;
    comparison.purpose = m_request.purpose;
    comparison.metric = m_request.metric;
    comparison.min_effect_pct = m_request.min_effect_pct;
    comparison.rounds = std::move(rounds);
    m_journal.write([&](store::Writer& writer) { result.comparison_id = writer.append(comparison).id; });
  }
  result.candidate = candidate.finish(std::move(candidate_outcome));
  return result;
}

} // namespace ej::measuring
