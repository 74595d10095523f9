#include "evidence/attempt_queries.h"

#include "core/references.h"
#include "evidence/lookup.h"
#include "evidence/records_json.h"
#include "evidence/run_code.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/time.h"

#include <set>

namespace ej::evidence {

std::vector<core::Attempt> log_attempts(store::Journal& journal, const LogQuery& query)
{
  store::AttemptFilter filter;
  filter.tag = query.tag;
  filter.limit = query.limit;
  if (!query.status.empty()) {
    filter.status = core::to_string(parse_status_argument(query.status));
  }
  if (!query.since.empty()) {
    const auto since = util::parse_utc(query.since);
    if (!since) {
      throw UsageError("--since '{}' is not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", query.since);
    }
    filter.since_ms = *since;
  }
  if (!query.tag.empty()) {
    require_tag(journal, query.tag); // a tag no attempt has is a typo, not an empty history
  }
  if (!query.all_plans) {
    filter.plan = plan_filter(journal, query.plan).value_or("");
  }
  return store::list_attempts(journal.db(), filter);
}

std::vector<core::Attempt> search_attempts(store::Journal& journal, const std::string& text, int limit)
{
  std::vector<core::Attempt> attempts;
  for (const int number : store::search_attempts(journal.db(), text, limit)) {
    if (auto attempt = store::find_attempt(journal.db(), number)) {
      attempts.push_back(std::move(*attempt));
    }
  }
  return attempts;
}

namespace {

// Number ("12", "#12"), then tag, title and full text, each newest first; every match once, in
// that order.
std::vector<int> find_why_matches(store::Journal& journal, const std::string& query, int limit)
{
  std::vector<int> matches;
  std::set<int> seen;
  const auto add = [&](const std::vector<int>& numbers) {
    for (const int number : numbers) {
      if (seen.insert(number).second) {
        matches.push_back(number);
      }
    }
  };
  try {
    const int number = core::parse_attempt_number(query);
    if (store::find_attempt(journal.db(), number)) {
      add({number});
      return matches;
    }
  } catch (const UsageError&) {
    // not a number: search by text below
  }
  add(store::attempts_with_tag(journal.db(), query, limit));
  add(store::attempts_with_title(journal.db(), query, limit));
  add(store::search_attempts(journal.db(), query, limit));
  if (static_cast<int>(matches.size()) > limit) {
    matches.resize(static_cast<std::size_t>(limit));
  }
  return matches;
}

} // namespace

std::vector<core::AttemptHistory> why_matches(store::Journal& journal, const std::string& query, int limit)
{
  std::vector<core::AttemptHistory> histories;
  for (const int number : find_why_matches(journal, query, limit)) {
    if (auto attempt = store::find_attempt(journal.db(), number)) {
      histories.push_back(store::load_history(journal.db(), *attempt));
    }
  }
  return histories;
}

nlohmann::json attempts_json(const std::vector<core::Attempt>& attempts)
{
  auto out = nlohmann::json::array();
  for (const auto& attempt : attempts) {
    out.push_back(to_json(attempt));
  }
  return out;
}

nlohmann::json attempt_detail_json(Reader& reader, const core::Attempt& attempt, bool diff)
{
  auto& journal = reader.journal();
  auto out = to_json(store::load_history(journal.db(), attempt));
  store::RunFilter filter;
  filter.attempt = attempt.number;
  const auto runs = store::list_runs(journal.db(), filter);
  auto& numbers = out["runs"] = nlohmann::json::array();
  for (const auto& run : runs) {
    numbers.push_back(run.number);
  }
  const auto judgement = judge_attempt(reader, attempt.number);
  if (judgement.verdict) {
    out["verdict"] = verdict_json(*judgement.verdict);
  } else {
    out["verdict"] = nullptr;
    out["unjudged_because"] = judgement.why_not;
    out["next"] = next_json(judgement.next);
  }
  if (diff) {
    out["diff"] = attempt.git.diff_blob.empty() ? "" : journal.blob(attempt.git.diff_blob).value_or("");
    auto& code = out["run_code"] = nlohmann::json::array();
    for (const auto& group : code_of_runs(attempt.git, runs)) {
      code.push_back({{"runs", group.runs},
                      {"git", core::to_json(group.git)},
                      {"same_as_attempt", group.same_as_attempt}});
    }
  }
  return out;
}

nlohmann::json why_json(Reader& reader, const std::vector<core::AttemptHistory>& histories)
{
  auto out = nlohmann::json::array();
  for (const auto& history : histories) {
    auto entry = to_json(history);
    const auto verdict = judge_attempt(reader, history.attempt.number).verdict;
    entry["verdict"] = verdict ? verdict_json(*verdict) : nlohmann::json();
    out.push_back(std::move(entry));
  }
  return out;
}

} // namespace ej::evidence
