#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ej::store {

// The payload version written by this ej (store/events.h says what each one means).
inline constexpr int k_event_schema_version = 3;

// Lamport clocks (docs/events.md). One event far ahead of every other replica's, crafted or
// corrupted, would drag every later clock up to it, and at INT64_MAX they stick: a later change
// then loses to an earlier one. An incoming event may lead the highest clock of every other
// replica by at most k_max_clock_lead (a replica writes that many events while seeing nobody's:
// never), and never reach k_clock_ceiling.
inline constexpr std::int64_t k_max_clock_lead = std::int64_t{1} << 32;
inline constexpr std::int64_t k_clock_ceiling = std::int64_t{1} << 53;

// An immutable change to the journal: the source of truth from which every derived table is built.
struct Event {
  std::int64_t seq = 0; // local insertion order
  std::string id;       // ULID
  std::string replica;
  std::int64_t lamport = 0;
  std::string type; // "plan.created", "attempt.status", ...
  int schema_version = k_event_schema_version;
  std::int64_t time_ms = 0;
  nlohmann::json payload;
};

} // namespace ej::store
