#include "evidence/evaluation.h"

#include "core/numbering.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ej::evidence {

bool Evaluation::any_target_missed() const
{
  return std::any_of(targets.begin(), targets.end(),
                     [](const TargetResult& t) { return t.state == TargetState::NotMet; });
}

std::optional<Evaluation> evaluate_attempt(Reader& reader, int attempt, Against against)
{
  const auto plan = reader.plan_of_attempt(attempt);
  if (!plan) {
    return std::nullopt;
  }
  Evaluation out;
  out.plan = *plan;
  const auto& measures = reader.measures(*plan);
  // The benchmarks the attempt has usable runs of, newest first as its runs are.
  std::vector<std::string> benches;
  for (const auto& run : reader.runs_of_attempt(attempt)) {
    if (usable(run) && std::find(benches.begin(), benches.end(), run.bench) == benches.end()) {
      benches.push_back(run.bench);
    }
  }
  // In the plan's order of measures, then the rest by name.
  std::vector<std::pair<std::string, std::string>> judged; // bench, metric ("": its primary)
  for (const auto& m : measures.measures) {
    if (std::find(benches.begin(), benches.end(), m.bench) != benches.end()) {
      judged.emplace_back(m.bench, m.metric);
    }
  }
  for (const auto& bench : benches) {
    if (measures.of_bench(bench).empty()) {
      judged.emplace_back(bench, "");
    }
  }
  std::set<std::string> reported;
  for (const auto& target : measures.targets) {
    out.targets.push_back(unmeasured_target(target));
  }
  for (const auto& [bench, metric] : judged) {
    auto set = reader.attempt_set(attempt, bench);
    if (!set) {
      continue;
    }
    // Each target on the first benchmark that measures it (the one it names, when it names one).
    for (std::size_t i = 0; i < measures.targets.size(); ++i) {
      const auto& target = measures.targets[i];
      if (out.targets[i].state != TargetState::NotMeasured ||
          (!target.bench.empty() && target.bench != bench)) {
        continue;
      }
      out.targets[i] = evaluate_target(target, *set, measures.headline_for(bench, target.metric));
    }
    auto judgement = judge_set(reader, *plan, std::move(*set), against, metric);
    if (judgement.verdict) {
      out.verdicts.push_back(std::move(*judgement.verdict));
    } else {
      if (out.why_not.empty()) {
        out.why_not = judgement.why_not;
        out.unjudged = judgement.unjudged;
      }
      if (judgement.unjudged != Unjudged::IsBaseline && reported.insert(bench).second) {
        out.missing.push_back({bench, judgement.why_not, judgement.unjudged == Unjudged::NoBaseline,
                               std::move(judgement.next)});
      }
    }
  }
  if (!out.verdicts.empty()) {
    out.lead = 0; // the headline measure's when it has one: measures come first, in order
  }
  if (out.verdicts.empty() && out.why_not.empty()) {
    const auto& runs = reader.runs_of_attempt(attempt);
    const auto withdrawn =
        std::count_if(runs.begin(), runs.end(), [](const auto& run) { return run.withdrawn(); });
    out.why_not = fmt::format("attempt {} has no finished runs{}; run one with 'ej run BENCH --attempt {}'",
                              core::number_label(attempt),
                              withdrawn > 0 ? fmt::format(" ({} withdrawn)", withdrawn) : "", attempt);
  }
  return out;
}

Judgement judge_attempt(Reader& reader, int attempt, Against against)
{
  auto evaluation = evaluate_attempt(reader, attempt, against);
  if (!evaluation) {
    return {std::nullopt,
            fmt::format("there is no attempt {}", core::number_label(attempt)),
            Unjudged::Other,
            {}};
  }
  if (const auto lead = evaluation->lead) {
    return {std::move(evaluation->verdicts[*lead]), "", Unjudged::Other, {}};
  }
  Judgement none{std::nullopt, evaluation->why_not, evaluation->unjudged, {}};
  if (!evaluation->missing.empty() && evaluation->missing.front().why == evaluation->why_not) {
    none.next = evaluation->missing.front().next;
  }
  return none;
}

} // namespace ej::evidence
