#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ej::store {

// The payload version written by this ej (store/events.h says what each one means).
inline constexpr int k_event_schema_version = 2;

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
