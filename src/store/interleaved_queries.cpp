#include "store/interleaved_queries.h"

#include <nlohmann/json.hpp>

namespace ej::store {

std::optional<InterleavedRecord> interleaved_comparison_of(Database& db, int run)
{
  auto select =
      db.prepare("SELECT event_id, candidate_run, reference_run, payload FROM interleaved_comparisons "
                 "WHERE candidate_run = ? OR reference_run = ? ORDER BY event_id LIMIT 1");
  select.bind(1, run).bind(2, run);
  if (!select.step()) {
    return std::nullopt;
  }
  InterleavedRecord record;
  record.event_id = select.text(0);
  record.candidate = static_cast<int>(select.integer(1));
  record.reference = static_cast<int>(select.integer(2));
  Event event;
  event.type = std::string(events::ComparisonInterleaved::type);
  event.payload = nlohmann::json::parse(select.text(3), nullptr, false);
  record.design = events::ComparisonInterleaved::read(event);
  return record;
}

} // namespace ej::store
