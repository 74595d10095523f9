#include "cli/output.h"

#include "core/numbering.h"
#include "util/term.h"
#include "util/time.h"

#include <cstdio>
#include <unistd.h>

namespace ej::cli {

bool stdout_colour()
{
  static const bool enabled = util::use_colour(STDOUT_FILENO);
  return enabled;
}

std::string paint(std::string_view text, Colour colour)
{
  if (!stdout_colour()) {
    return std::string(text);
  }
  const char* code = "";
  switch (colour) {
  case Colour::Bold: code = "1"; break;
  case Colour::Dim: code = "2"; break;
  case Colour::Red: code = "31"; break;
  case Colour::Green: code = "32"; break;
  case Colour::Yellow: code = "33"; break;
  case Colour::Blue: code = "34"; break;
  case Colour::Magenta: code = "35"; break;
  case Colour::Cyan: code = "36"; break;
  }
  return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}

std::string paint_status(core::Status status)
{
  const auto name = core::to_string(status);
  switch (status) {
  case core::Status::Adopted: return paint(name, Colour::Green);
  case core::Status::Rejected: return paint(name, Colour::Red);
  case core::Status::Blocked: return paint(name, Colour::Magenta);
  case core::Status::Inconclusive: return paint(name, Colour::Yellow);
  case core::Status::Superseded: return paint(name, Colour::Dim);
  case core::Status::Running: return paint(name, Colour::Cyan);
  case core::Status::Proposed: return paint(name, Colour::Blue);
  }
  return std::string(name);
}

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

void print_json(const nlohmann::json& json)
{
  const auto text = with_schema(json).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
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

std::string indent_continuation(std::string_view text, std::string_view indent)
{
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') {
      out += indent;
    }
  }
  return out;
}

} // namespace ej::cli
