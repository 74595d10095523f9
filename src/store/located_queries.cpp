#include "store/located_queries.h"

#include "store/events.h"

#include <nlohmann/json.hpp>

namespace ej::store {

namespace {

// A row of located_steps: the answer from its event's payload, the runs as this journal numbers them.
core::LocatedStep read_located(const Statement& row)
{
  Event event;
  event.type = std::string(events::StepLocated::type);
  event.payload = nlohmann::json::parse(row.text(3), nullptr, false);
  const auto located = events::StepLocated::read(event);
  core::LocatedStep step;
  step.event_id = row.text(0);
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
  step.candidate_run = row.is_null(1) ? 0 : static_cast<int>(row.integer(1));
  step.reference_run = row.is_null(2) ? 0 : static_cast<int>(row.integer(2));
  step.log_ratio = located.log_ratio;
  step.estimate = located.estimate;
  step.low = located.low;
  step.high = located.high;
  step.unit = located.unit;
  step.time_ms = row.integer(4);
  return step;
}

} // namespace

std::vector<core::LocatedStep> located_steps(Database& db, const std::string& bench)
{
  auto select =
      db.prepare("SELECT event_id, candidate_run, reference_run, payload, time_ms FROM located_steps "
                 "WHERE bench = ? ORDER BY time_ms, event_id");
  select.bind(1, bench);
  return select.rows(read_located);
}

} // namespace ej::store
