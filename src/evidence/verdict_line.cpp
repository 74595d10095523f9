#include "evidence/verdict_line.h"

#include "evidence/verdict.h"
#include "store/verdict_cache.h"

#include <map>

namespace ej::evidence {

std::vector<std::optional<std::string>>
verdict_lines(Reader& reader, const std::vector<core::Attempt>& attempts, std::string_view maker)
{
  std::map<int, store::VerdictLookup> kept;
  if (!maker.empty() && reader.has_verdict_cache()) {
    std::vector<int> numbers;
    for (const auto& attempt : attempts) {
      numbers.push_back(attempt.number);
    }
    kept = store::look_up_verdicts(reader.journal().db(), numbers);
  }
  // What the kept lines say; nullopt where the attempt is judged now.
  const auto kept_line = [&](const core::Attempt& attempt) -> std::optional<std::optional<std::string>> {
    if (const auto found = kept.find(attempt.number); found != kept.end()) {
      const auto& lookup = found->second;
      if (lookup.now.runs == 0) {
        return std::optional<std::string>(); // no run, no verdict: nothing to read
      }
      if (lookup.cached && lookup.maker == maker && lookup.cached->inputs == lookup.now) {
        return lookup.cached->text;
      }
    }
    return std::nullopt;
  };
  // Those judged now are read together: after a new baseline, every attempt listed.
  std::vector<core::Attempt> to_judge;
  for (const auto& attempt : attempts) {
    if (!kept_line(attempt)) {
      to_judge.push_back(attempt);
    }
  }
  reader.read_attempts(to_judge);
  std::vector<std::optional<std::string>> out;
  out.reserve(attempts.size());
  for (const auto& attempt : attempts) {
    if (auto line = kept_line(attempt)) {
      out.push_back(std::move(*line));
      continue;
    }
    reader.know_attempt(attempt); // its plan, without reading the attempt again
    auto verdict = judge_attempt(reader, attempt.number).verdict;
    out.push_back(verdict ? std::optional(std::move(verdict->text)) : std::nullopt);
  }
  return out;
}

std::optional<store::VerdictInputs>
attempt_verdict_inputs(const store::VerdictInputs& plan, const std::vector<core::RunRecord>& runs,
                       const std::function<bool(const std::string&)>& has_snapshot)
{
  for (const auto& run : runs) {
    if (run.status == core::RunStatus::Started || (!run.env_blob.empty() && !has_snapshot(run.env_blob))) {
      return std::nullopt; // its line may change with no count changing
    }
  }
  auto inputs = plan;
  inputs.runs = static_cast<std::int64_t>(runs.size());
  return inputs;
}

} // namespace ej::evidence
