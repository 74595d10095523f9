#include "evidence/verdict_line.h"

#include "evidence/verdict.h"
#include "store/verdict_cache.h"

#include <algorithm>
#include <map>

namespace ej::evidence {

namespace {

// The kept line of a lookup whose inputs differ from the journal's by pins made after everything it
// was judged from (store::LaterPins): the same verdict against the same baseline, with the note on
// the current one worded anew. nullopt when it must be judged again.
std::optional<std::optional<std::string>> after_later_pins(const store::VerdictLookup& lookup)
{
  const auto& cached = *lookup.cached;
  auto inputs = cached.inputs;
  inputs.baselines = lookup.now.baselines;
  if (!cached.later_pins || !lookup.pinned_after_only || inputs != lookup.now) {
    return std::nullopt;
  }
  const auto& later = *cached.later_pins;
  if (!cached.text) {
    return std::optional<std::string>(); // no verdict then, none now: no benchmark's baseline moved
  }
  const auto& text = *cached.text;
  if (later.bench.empty() || !lookup.baseline_now || later.note_at < 0 || later.note_length < 0 ||
      static_cast<std::size_t>(later.note_at + later.note_length) > text.size()) {
    return std::nullopt;
  }
  const auto at = static_cast<std::size_t>(later.note_at);
  return text.substr(0, at) + baseline_note(later.baseline_run, lookup.baseline_now) +
         text.substr(at + static_cast<std::size_t>(later.note_length));
}

} // namespace

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
      if (lookup.cached && lookup.maker == maker) {
        if (lookup.cached->inputs == lookup.now) {
          return lookup.cached->text;
        }
        return after_later_pins(lookup);
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

store::LaterPins later_pins(const Verdict* lead, const std::vector<core::BaselineRecord>& pins,
                            const std::vector<core::RunRecord>& runs)
{
  store::LaterPins later;
  for (const auto& pin : pins) {
    later.through_ms = std::max(later.through_ms, pin.time_ms);
  }
  for (const auto& run : runs) {
    later.through_ms = std::max(later.through_ms, run.started_ms);
  }
  if (lead != nullptr) {
    later.bench = lead->candidate.bench;
    later.baseline_run = lead->baseline_run;
    later.note_at = static_cast<std::int64_t>(lead->note_at);
    later.note_length = static_cast<std::int64_t>(lead->text.size() - lead->brief.size());
  }
  return later;
}

} // namespace ej::evidence
