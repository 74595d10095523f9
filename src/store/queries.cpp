#include "store/queries.h"

#include "core/numbering.h"
#include "store/git_columns.h"
#include "store/newest_first.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace ej::store {

namespace {

constexpr const char* k_attempt_columns =
    "a.number, a.id, a.plan, a.title, a.hypothesis, a.command, a.status, a.reason, a.created_ms, "
    "a.updated_ms, a.git_commit, a.git_branch, a.git_dirty, a.git_diff_blob, "
    "coalesce((SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM attempt_tags "
    "WHERE attempt = a.number ORDER BY tag)), ''), "
    // A blocked attempt's adopted retries (core::Attempt::resolved_by), through attempt_links_by_target.
    // CROSS JOIN keeps the links outside: left to itself the planner walked every adopted attempt by
    // status first (9 ms on 100,000 attempts, for each blocked one listed).
    "CASE WHEN a.status = 'blocked' THEN coalesce((SELECT group_concat(number, ',') FROM (SELECT r.number "
    "FROM attempt_links l CROSS JOIN attempts r ON r.number = l.from_attempt WHERE l.to_attempt = a.number "
    "AND l.kind = 'retry-of' AND r.status = 'adopted' ORDER BY r.number)), '') ELSE '' END";

core::Attempt read_attempt(const Statement& row)
{
  core::Attempt attempt;
  attempt.number = static_cast<int>(row.integer(0));
  attempt.id = row.text(1);
  attempt.plan = row.text(2);
  attempt.title = row.text(3);
  attempt.hypothesis = row.text(4);
  attempt.command = row.text(5);
  attempt.status = core::parse_status(row.text(6)).value_or(core::Status::Proposed);
  attempt.reason = row.text(7);
  attempt.created_ms = row.integer(8);
  attempt.updated_ms = row.integer(9);
  attempt.git = read_git_columns(row, 10);
  const auto tags = row.text(14);
  if (!tags.empty()) {
    attempt.tags = util::split(tags, '\x1f');
  }
  if (const auto resolved = row.text(15); !resolved.empty()) {
    for (const auto& number : util::split(resolved, ',')) {
      attempt.resolved_by.push_back(std::stoi(number));
    }
  }
  return attempt;
}

// Records read in time order (the order of an index on time), with their event ids: into `out`
// ordered by time, then event id, as the journal orders events of the same millisecond.
template <typename Record>
void in_time_order(std::vector<std::pair<std::string, Record>>& by_id, std::vector<Record>& out)
{
  std::stable_sort(by_id.begin(), by_id.end(), [](const auto& a, const auto& b) {
    return a.second.time_ms != b.second.time_ms ? a.second.time_ms < b.second.time_ms : a.first < b.first;
  });
  out.reserve(by_id.size());
  for (auto& [id, record] : by_id) {
    out.push_back(std::move(record));
  }
}

core::Plan read_plan(const Statement& row)
{
  core::Plan plan;
  plan.slug = row.text(0);
  plan.title = row.text(1);
  plan.goal = row.text(2);
  plan.target = row.text(3);
  plan.doc_path = row.text(4);
  plan.created_ms = row.integer(5);
  plan.attempt_count = static_cast<int>(row.integer(6));
  // Parsed here, once: what the projection stored was checked when it was written, by this ej or
  // another; a line this ej cannot read is left out, and kept in `unread` for the commands to say,
  // rather than failing every command on the plan.
  const auto unread = [&](std::string_view what, const std::string& text, const UsageError& error) {
    plan.unread.push_back(fmt::format("plan {}: the {} '{}' cannot be read by this ej ({}); it is left out: "
                                      "was it written by a newer ej?",
                                      plan.slug, what, text, error.what()));
  };
  // One measure or target a line.
  const auto read_lines = [&](std::string_view what, const std::string& text, auto& into, auto parse) {
    for (const auto& line : util::split(text, '\n')) {
      if (line.empty()) {
        continue;
      }
      try {
        into.push_back(parse(line));
      } catch (const UsageError& error) {
        unread(what, line, error);
      }
    }
  };
  read_lines("measure", row.text(7), plan.measures, core::parse_plan_measure);
  read_lines("target", row.text(8), plan.targets, core::parse_target);
  try {
    plan.headline = core::parse_combination(row.text(9), "headline");
  } catch (const UsageError& error) {
    unread("headline", row.text(9), error);
  }
  return plan;
}

constexpr const char* k_plan_query =
    "SELECT p.slug, p.title, p.goal, p.target, p.doc_path, p.created_ms, "
    "(SELECT count(*) FROM attempts WHERE plan = p.slug), coalesce(m.measures, ''), "
    "coalesce(m.targets, p.target), coalesce(m.headline, '') "
    "FROM plans p LEFT JOIN plan_measures m ON m.plan = p.slug";

std::vector<int> numbers(Statement& statement)
{
  std::vector<int> out;
  while (statement.step()) {
    out.push_back(static_cast<int>(statement.integer(0)));
  }
  return out;
}

// FTS5 query syntax gives meaning to quotes, dashes, colons and more; every word the user typed is
// quoted so that "NCCL_ALGO=Tree" is searched as text, never parsed as a query. A word that ends
// in '*' ("allred*") matches the words it starts: asked for, because FTS5 answers a prefix by
// merging the lists of every word it starts before giving the first match (4 ms on 100,000
// attempts, where a whole word stops at the limit in 0.2 ms).
std::string fts_query(const std::string& text)
{
  std::string query;
  std::string word;
  const auto flush = [&] {
    const auto stars = word.find_last_not_of('*');
    const bool prefix = stars != std::string::npos && stars + 1 < word.size();
    if (prefix) {
      word.erase(stars + 1);
    }
    if (!word.empty() && stars != std::string::npos) {
      std::string quoted = "\"";
      for (const char c : word) {
        quoted += c;
        if (c == '"') {
          quoted += '"';
        }
      }
      quoted += prefix ? "\" *" : "\"";
      query += query.empty() ? quoted : " " + quoted;
    }
    word.clear();
  };
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return query;
}

// The whole text as one FTS5 phrase: its words in order.
std::string fts_phrase(const std::string& text)
{
  if (text.find_first_not_of(" \t\n") == std::string::npos) {
    return {};
  }
  return util::double_quoted(text);
}

} // namespace

std::vector<core::Plan> list_plans(Database& db)
{
  auto select = db.prepare(std::string(k_plan_query) + " ORDER BY p.slug");
  std::vector<core::Plan> plans;
  while (select.step()) {
    plans.push_back(read_plan(select));
  }
  return plans;
}

std::optional<core::Plan> find_plan(Database& db, const std::string& slug)
{
  auto select = db.prepare(std::string(k_plan_query) + " WHERE p.slug = ?");
  select.bind(1, slug);
  if (!select.step()) {
    return std::nullopt;
  }
  return read_plan(select);
}

std::vector<core::Attempt> list_attempts(Database& db, const AttemptFilter& filter)
{
  SqlFilter where;
  if (!filter.plan.empty()) {
    where.add("a.plan = ?", filter.plan);
  }
  if (!filter.status.empty()) {
    where.add("a.status = ?", filter.status);
  }
  if (!filter.tag.empty()) {
    where.add("a.number IN (SELECT attempt FROM attempt_tags WHERE tag = ?)", filter.tag);
  }
  if (filter.since_ms > 0) {
    where.add("a.updated_ms >= ?", filter.since_ms);
  }
  return list_newest_first<core::Attempt>(
      db, fmt::format("SELECT {} FROM attempts a WHERE 1 = 1", k_attempt_columns), "a.", where, filter.limit,
      [](Statement& select, std::vector<core::Attempt>& attempts) {
        while (select.step()) {
          attempts.push_back(read_attempt(select));
        }
      });
}

std::optional<core::Attempt> find_attempt(Database& db, int number)
{
  auto select = db.prepare(fmt::format("SELECT {} FROM attempts a WHERE a.number = ?", k_attempt_columns));
  select.bind(1, number);
  if (select.step()) {
    return read_attempt(select);
  }
  // @k3f9qx keeps naming the attempt after the remote gave it its number.
  if (core::is_provisional(number)) {
    auto by_id =
        db.prepare(fmt::format("SELECT {} FROM attempts a WHERE substr(a.id, 11, 6) = ?", k_attempt_columns));
    by_id.bind(1, *core::provisional_id_part(core::number_label(number)));
    if (by_id.step()) {
      return read_attempt(by_id);
    }
  }
  return std::nullopt;
}

int number_of_attempt(Database& db, const std::string& id)
{
  auto select = db.prepare("SELECT number FROM attempts WHERE id = ?");
  select.bind(1, id);
  return select.step() ? static_cast<int>(select.integer(0)) : 0;
}

core::AttemptHistory load_history(Database& db, const core::Attempt& attempt)
{
  // Each list is read in the order of its index and put in order here: an ORDER BY that the index
  // does not give (ties of time broken by event id) made SQLite set up a sorter for every query, a
  // third of a document's reading of its attempts' histories.
  core::AttemptHistory history;
  history.attempt = attempt;
  auto changes = db.prepare(
      "SELECT time_ms, from_status, to_status, reason, git_commit, git_branch, git_dirty, git_diff_blob, "
      "event_id FROM status_changes WHERE attempt = ? ORDER BY time_ms");
  changes.bind(1, attempt.number);
  std::vector<std::pair<std::string, core::StatusChange>> changes_by_id;
  while (changes.step()) {
    core::StatusChange change;
    change.time_ms = changes.integer(0);
    change.from = changes.text(1);
    change.to = changes.text(2);
    change.reason = changes.text(3);
    change.git = read_git_columns(changes, 4);
    changes_by_id.emplace_back(changes.text(8), std::move(change));
  }
  in_time_order(changes_by_id, history.status_changes);
  auto notes = db.prepare("SELECT time_ms, text, event_id FROM notes WHERE attempt = ? ORDER BY time_ms");
  notes.bind(1, attempt.number);
  std::vector<std::pair<std::string, core::Note>> notes_by_id;
  while (notes.step()) {
    notes_by_id.emplace_back(notes.text(2), core::Note{notes.integer(0), notes.text(1)});
  }
  in_time_order(notes_by_id, history.notes);
  // The links from this attempt, in the order of the primary key; those to it, put in that order.
  const auto read_links = [&](std::string_view where, std::vector<core::Link>& into) {
    auto select =
        db.prepare(fmt::format("SELECT kind, from_attempt, to_attempt FROM attempt_links WHERE {}", where));
    select.bind(1, attempt.number);
    while (select.step()) {
      into.push_back(
          {select.text(0), static_cast<int>(select.integer(1)), static_cast<int>(select.integer(2))});
    }
  };
  read_links("from_attempt = ? ORDER BY kind, to_attempt", history.links_out);
  read_links("to_attempt = ?", history.links_in);
  std::sort(history.links_in.begin(), history.links_in.end(), [](const core::Link& a, const core::Link& b) {
    return std::tie(a.kind, a.from) < std::tie(b.kind, b.from);
  });
  return history;
}

int next_attempt_number(Database& db)
{
  return static_cast<int>(db.query_integer(fmt::format(
      "SELECT coalesce(max(number), 0) + 1 FROM attempts WHERE number < {}", core::k_provisional_base)));
}

std::vector<int> search_attempts(Database& db, const std::string& text, int limit)
{
  auto query = fts_query(text);
  if (query.empty()) {
    return {};
  }
  auto select =
      db.prepare("SELECT -rowid FROM attempt_search WHERE attempt_search MATCH ? ORDER BY rowid LIMIT ?");
  select.bind(1, query).bind(2, limit);
  return numbers(select);
}

std::vector<int> attempts_with_tag(Database& db, const std::string& tag, int limit)
{
  auto select = db.prepare("SELECT attempt FROM attempt_tags WHERE tag = ? ORDER BY attempt DESC LIMIT ?");
  select.bind(1, tag).bind(2, limit);
  return numbers(select);
}

std::optional<nlohmann::json> event_payload(Database& db, const std::string& id)
{
  auto select = db.prepare("SELECT payload FROM events WHERE id = ?");
  select.bind(1, id);
  if (!select.step()) {
    return std::nullopt;
  }
  return nlohmann::json::parse(select.text(0), nullptr, false);
}

std::vector<std::string> list_tags(Database& db)
{
  auto select = db.prepare("SELECT DISTINCT tag FROM attempt_tags ORDER BY tag");
  std::vector<std::string> tags;
  while (select.step()) {
    tags.emplace_back(select.text(0));
  }
  return tags;
}

std::vector<int> attempts_with_title(Database& db, const std::string& text, int limit)
{
  const auto phrase = fts_phrase(text);
  if (phrase.empty()) {
    return {};
  }
  auto select =
      db.prepare("SELECT -rowid FROM attempt_search WHERE attempt_search MATCH ? ORDER BY rowid LIMIT ?");
  select.bind(1, "title : " + phrase).bind(2, limit);
  return numbers(select);
}

} // namespace ej::store
