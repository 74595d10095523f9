#include "evidence/records_json.h"

#include "core/numbering.h"
#include "util/time.h"

namespace ej::evidence {

nlohmann::json with_schema(nlohmann::json json)
{
  if (json.is_object()) {
    json["schema"] = k_json_schema;
  } else if (json.is_array()) {
    for (auto& element : json) {
      if (element.is_object()) {
        element["schema"] = k_json_schema;
      }
    }
  }
  return json;
}

nlohmann::json json_number(long long number)
{
  return core::is_provisional(number) ? nlohmann::json(nullptr) : nlohmann::json(number);
}

nlohmann::json to_json(const core::Attempt& attempt)
{
  return {
      {"number", json_number(attempt.number)},
      {"name", core::number_label(attempt.number)},
      {"id", attempt.id},
      {"plan", attempt.plan},
      {"title", attempt.title},
      {"hypothesis", attempt.hypothesis},
      {"command", attempt.command},
      {"status", core::to_string(attempt.status)},
      {"resolved_by", attempt.resolved_by},
      {"reason", attempt.reason},
      {"tags", attempt.tags},
      {"created", util::format_utc(attempt.created_ms)},
      {"updated", util::format_utc(attempt.updated_ms)},
      {"git", core::to_json(attempt.git)},
  };
}

nlohmann::json to_json(const core::Plan& plan)
{
  auto measures = nlohmann::json::array();
  for (const auto& m : plan.measures) {
    measures.push_back({{"bench", m.bench}, {"metric", m.metric}, {"headline", core::describe(m.headline)}});
  }
  auto targets = nlohmann::json::array();
  for (const auto& t : plan.targets) {
    targets.push_back({{"bench", t.bench}, {"target", core::to_string(t)}});
  }
  return {
      {"slug", plan.slug},
      {"title", plan.title},
      {"goal", plan.goal},
      {"target", plan.target},
      {"targets", targets},
      {"measures", measures},
      {"headline", core::describe(plan.headline)},
      {"doc", plan.doc_path},
      {"created", util::format_utc(plan.created_ms)},
      {"attempts", plan.attempt_count},
  };
}

nlohmann::json to_json(const core::AttemptHistory& history)
{
  auto json = to_json(history.attempt);
  auto& changes = json["status_history"] = nlohmann::json::array();
  for (const auto& change : history.status_changes) {
    changes.push_back({{"created", util::format_utc(change.time_ms)},
                       {"from", change.from},
                       {"to", change.to},
                       {"reason", change.reason},
                       {"git", core::to_json(change.git)}});
  }
  auto& notes = json["notes"] = nlohmann::json::array();
  for (const auto& note : history.notes) {
    notes.push_back({{"created", util::format_utc(note.time_ms)}, {"text", note.text}});
  }
  auto& links = json["links"] = nlohmann::json::array();
  for (const auto* list : {&history.links_out, &history.links_in}) {
    for (const auto& link : *list) {
      links.push_back({{"kind", link.kind}, {"from", link.from}, {"to", link.to}});
    }
  }
  return json;
}

} // namespace ej::evidence
