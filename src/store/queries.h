#pragma once

#include "core/records.h"
#include "store/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Typed reads of the derived tables.
namespace ej::store {

std::vector<core::Plan> list_plans(Database& db);
std::optional<core::Plan> find_plan(Database& db, const std::string& slug);

struct AttemptFilter {
  std::string plan;
  std::string status;
  std::string tag;
  std::int64_t since_ms = 0;
  int limit = 0; // 0: all
};

// Newest first, like git log.
std::vector<core::Attempt> list_attempts(Database& db, const AttemptFilter& filter);
std::optional<core::Attempt> find_attempt(Database& db, int number);
core::AttemptHistory load_history(Database& db, const core::Attempt& attempt);
int next_attempt_number(Database& db);
// The local number of the attempt that event id created (0: none).
int number_of_attempt(Database& db, const std::string& id);

// The newest `limit` attempts (highest numbers first, as `git log --grep` lists) whose title,
// hypothesis, command, tags, reasons or notes hold every word of text (SQLite FTS5; whole words,
// case-insensitively; a word ending in '*' matches the words it starts). Newest first rather than
// ranked:
// a ranking reads every match, and on a large journal a common word matches most attempts.
std::vector<int> search_attempts(Database& db, const std::string& text, int limit);
// The newest `limit` attempts with the tag.
std::vector<int> attempts_with_tag(Database& db, const std::string& tag, int limit);
// The payload of the event `id` (what the derived tables do not keep); nullopt when there is none.
std::optional<nlohmann::json> event_payload(Database& db, const std::string& id);
// Every tag some attempt has, in order.
std::vector<std::string> list_tags(Database& db);
// The newest `limit` attempts whose title holds text's words in order.
std::vector<int> attempts_with_title(Database& db, const std::string& text, int limit);

} // namespace ej::store
