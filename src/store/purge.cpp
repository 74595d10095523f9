#include "store/purge.h"

#include "core/redact.h"
#include "store/event_exchange.h"
#include "store/projection.h"
#include "util/error.h"
#include "util/hash.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace ej::store {

namespace {

using nlohmann::json;

void replace_all(std::string& text, std::string_view from, std::string_view to)
{
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// Rewrites every string of the document (keys too) with the replacements, in order.
void rewrite_strings(json& document, const std::vector<std::pair<std::string, std::string>>& replacements)
{
  if (document.is_string()) {
    for (const auto& [from, to] : replacements) {
      replace_all(document.get_ref<std::string&>(), from, to);
    }
  } else if (document.is_array()) {
    for (auto& item : document) {
      rewrite_strings(item, replacements);
    }
  } else if (document.is_object()) {
    json rewritten = json::object();
    for (auto& [key, value] : document.items()) {
      rewrite_strings(value, replacements);
      std::string new_key = key;
      for (const auto& [from, to] : replacements) {
        replace_all(new_key, from, to);
      }
      rewritten[new_key] = std::move(value);
    }
    document = std::move(rewritten);
  }
}

std::string dump(const json& payload)
{
  return payload.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The blobs holding the value, stored again without it; old hash -> new hash.
std::map<std::string, std::string> purge_blobs(Database& db, std::string_view value)
{
  std::vector<std::pair<std::string, std::string>> found; // hash, new content
  {
    auto select = db.prepare("SELECT hash, content FROM blobs");
    while (select.step()) {
      auto content = select.blob(1);
      if (content.find(value) != std::string::npos) {
        replace_all(content, value, core::k_redacted);
        found.emplace_back(select.text(0), std::move(content));
      }
    }
  }
  std::map<std::string, std::string> moved;
  for (const auto& [hash, content] : found) {
    const auto new_hash = util::sha256_hex(content);
    db.prepare("DELETE FROM blobs WHERE hash = ?").bind(1, hash).run();
    db.prepare("INSERT OR IGNORE INTO blobs(hash, size, content) VALUES (?, ?, ?)")
        .bind(1, new_hash)
        .bind(2, static_cast<std::int64_t>(content.size()))
        .bind_blob(3, content)
        .run();
    moved[hash] = new_hash;
  }
  return moved;
}

// The value as it appears inside a JSON string.
std::string json_escaped(std::string_view value)
{
  auto escaped = dump(json(std::string(value)));
  return escaped.substr(1, escaped.size() - 2);
}

// Events are immutable by trigger; a purge is the one rewrite, so it lifts the triggers inside its
// transaction and puts the same ones back.
int purge_events(Database& db, std::string_view value, const std::map<std::string, std::string>& moved)
{
  std::vector<std::pair<std::string, std::string>> replacements = {
      {std::string(value), std::string(core::k_redacted)}};
  for (const auto& [from, to] : moved) {
    replacements.emplace_back(from, to);
  }
  // The value as it appears inside a JSON string of a stored payload.
  const auto escaped = json_escaped(value);

  std::vector<std::pair<std::int64_t, std::string>> rewritten; // seq, payload
  {
    auto select = db.prepare("SELECT seq, payload FROM events");
    while (select.step()) {
      const auto payload = select.text(1);
      bool hit = payload.find(escaped) != std::string::npos;
      for (auto it = moved.begin(); !hit && it != moved.end(); ++it) {
        hit = payload.find(it->first) != std::string::npos;
      }
      if (!hit) {
        continue;
      }
      auto document = json::parse(payload);
      rewrite_strings(document, replacements);
      rewritten.emplace_back(select.integer(0), dump(document));
    }
  }
  if (rewritten.empty()) {
    return 0;
  }
  std::vector<std::pair<std::string, std::string>> triggers; // name, sql
  {
    auto select =
        db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'");
    while (select.step()) {
      triggers.emplace_back(select.text(0), select.text(1));
    }
  }
  for (const auto& [name, sql] : triggers) {
    db.exec("DROP TRIGGER \"" + name + "\"");
  }
  for (const auto& [seq, payload] : rewritten) {
    db.prepare("UPDATE events SET payload = ? WHERE seq = ?").bind(1, payload).bind(2, seq).run();
  }
  for (const auto& [name, sql] : triggers) {
    db.exec(sql);
  }
  return static_cast<int>(rewritten.size());
}

} // namespace

PurgeReport purge_value(Journal& journal, std::string_view value)
{
  if (value.size() < 4) {
    throw Error("a value of {} character(s) occurs in ordinary text; give the whole leaked value (at least 4 "
                "characters)",
                value.size());
  }
  if (journal.read_only_reason()) {
    throw Error("{}", *journal.read_only_reason());
  }
  auto& db = journal.db();
  db.exec("PRAGMA secure_delete = ON"); // freed pages are zeroed, not left holding the value
  PurgeReport report;
  journal.redactor().add_value(value); // from now on, never written again by this ej
  journal.write([&](Writer& writer) {
    const auto moved = purge_blobs(db, value);
    report.blobs = static_cast<int>(moved.size());
    report.events = purge_events(db, value, moved);
    rebuild_derived_tables(db);
    db.exec("INSERT INTO attempt_search(attempt_search) VALUES ('optimize')");
    writer.append(events::JournalPurged{report.events, report.blobs});
  });
  // Old pages live on in the WAL and the free list until the file is rewritten.
  db.exec("VACUUM");
  auto checkpoint = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)");
  report.checkpointed = checkpoint.step() && checkpoint.integer(0) == 0;
  return report;
}

bool holds_value(std::string_view text, std::string_view value)
{
  return text.find(value) != std::string_view::npos ||
         text.find(json_escaped(value)) != std::string_view::npos;
}

std::optional<std::string> without_value(std::string_view content, std::string_view value)
{
  if (content.find(value) == std::string_view::npos) {
    return std::nullopt;
  }
  std::string out(content);
  replace_all(out, value, core::k_redacted);
  return out;
}

std::string events_as_stored(Database& db, std::string_view lines, std::string_view value)
{
  auto select = db.prepare(fmt::format("SELECT {} FROM events WHERE id = ?", k_event_columns));
  std::string out;
  std::size_t start = 0;
  while (start < lines.size()) {
    const auto end = std::min(lines.find('\n', start), lines.size());
    const auto line = lines.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      continue;
    }
    const auto decoded = decode_events(line);
    if (decoded.size() == 1) {
      select.reset();
      select.bind(1, decoded.front().id);
      if (select.step()) {
        out += encode_event(read_event(select));
        continue;
      }
    }
    std::string kept(line);
    replace_all(kept, json_escaped(value), core::k_redacted);
    out += kept + "\n";
  }
  return out;
}

} // namespace ej::store
