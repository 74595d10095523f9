#include "store/located_queries.h"

#include "store/events.h"

#include <nlohmann/json.hpp>

namespace ej::store {

std::vector<core::LocatedStep> located_steps(Database& db, const std::string& bench)
{
  auto select =
      db.prepare("SELECT event_id, candidate_run, reference_run, payload, time_ms FROM located_steps "
                 "WHERE bench = ? ORDER BY time_ms, event_id");
  select.bind(1, bench);
  std::vector<core::LocatedStep> out;
  while (select.step()) {
    Event event;
    event.type = std::string(events::StepLocated::type);
    event.payload = nlohmann::json::parse(select.text(3), nullptr, false);
    const auto located = events::StepLocated::read(event);
    core::LocatedStep step;
    step.event_id = select.text(0);
    step.bench = located.bench;
    step.metric = located.metric;
    step.params = located.params;
    step.good = located.good;
    step.bad = located.bad;
    step.first_bad = located.first_bad;
    step.candidates = located.candidates;
    for (const auto& skip : located.skipped) {
      step.skipped.push_back({skip.commit, skip.why});
    }
    step.min_effect_pct = located.min_effect_pct;
    step.candidate_run = select.is_null(1) ? 0 : static_cast<int>(select.integer(1));
    step.reference_run = select.is_null(2) ? 0 : static_cast<int>(select.integer(2));
    step.log_ratio = located.log_ratio;
    step.estimate = located.estimate;
    step.low = located.low;
    step.high = located.high;
    step.unit = located.unit;
    step.time_ms = select.integer(4);
    out.push_back(std::move(step));
  }
  return out;
}

} // namespace ej::store
