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
  std::vector<std::optional<std::string>> out;
  out.reserve(attempts.size());
  for (const auto& attempt : attempts) {
    if (const auto found = kept.find(attempt.number); found != kept.end()) {
      const auto& lookup = found->second;
      if (lookup.now.runs == 0) {
        out.emplace_back(); // no run, no verdict: nothing to read
        continue;
      }
      if (lookup.cached && lookup.maker == maker && lookup.cached->inputs == lookup.now) {
        out.push_back(lookup.cached->text);
        continue;
      }
    }
    reader.know_attempt(attempt); // its plan, without reading the attempt again
    auto verdict = judge_attempt(reader, attempt.number).verdict;
    out.push_back(verdict ? std::optional(std::move(verdict->text)) : std::nullopt);
  }
  return out;
}

} // namespace ej::evidence
