#include "store/interleaved_queries.h"

#include <nlohmann/json.hpp>

namespace ej::store {

namespace {

InterleavedRecord read_record(Statement& select)
{
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

} // namespace

std::optional<InterleavedRecord> interleaved_comparison_of(Database& db, int run)
{
  auto select =
      db.prepare("SELECT event_id, candidate_run, reference_run, payload FROM interleaved_comparisons "
                 "WHERE candidate_run = ? OR reference_run = ? ORDER BY event_id LIMIT 1");
  select.bind(1, run).bind(2, run);
  if (!select.step()) {
    return std::nullopt;
  }
  return read_record(select);
}

std::map<int, int> compared_candidates(Database& db)
{
  auto select = db.prepare("SELECT candidate_run, reference_run FROM interleaved_comparisons WHERE "
                           "coalesce(json_extract(payload, '$.purpose'), '') <> 'calibration'");
  std::map<int, int> out;
  while (select.step()) {
    out.emplace(static_cast<int>(select.integer(0)), static_cast<int>(select.integer(1)));
  }
  return out;
}

std::vector<InterleavedRecord> calibrations_of(Database& db, const std::string& bench)
{
  // Event ids are ULIDs: their order is the order they were made in. The comparisons first (CROSS
  // JOIN keeps that order): a journal has few, where a benchmark can have ten thousand runs, and
  // every verdict a listing judges asks.
  auto select = db.prepare(
      "SELECT c.event_id, c.candidate_run, c.reference_run, c.payload FROM interleaved_comparisons c "
      "CROSS JOIN runs r ON r.number = c.candidate_run WHERE r.bench = ? AND "
      "json_extract(c.payload, '$.purpose') = 'calibration' ORDER BY c.event_id DESC");
  select.bind(1, bench);
  return select.rows(read_record);
}

} // namespace ej::store
