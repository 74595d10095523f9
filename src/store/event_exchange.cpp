#include "store/event_exchange.h"

#include "store/projection.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/json_depth.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <thread>
#include <tuple>

namespace ej::store {

namespace {

using nlohmann::json;

void collect_blobs(const json& value, std::set<std::string>& out)
{
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      if (member.is_string() && key.size() > 5 && key.compare(key.size() - 5, 5, "_blob") == 0) {
        const auto& hash = member.get_ref<const std::string&>();
        if (!hash.empty()) {
          out.insert(hash);
        }
      } else {
        collect_blobs(member, out);
      }
    }
  } else if (value.is_array()) {
    for (const auto& item : value) {
      collect_blobs(item, out);
    }
  }
}

using Order = std::tuple<std::int64_t, std::string, std::string>; // lamport, replica, id

bool valid_envelope(const Event& event)
{
  return event.id.size() == 26 && !event.replica.empty() && !event.type.empty() && event.lamport > 0 &&
         event.payload.is_object();
}

} // namespace

Event read_event(const Statement& row)
{
  Event event;
  event.seq = row.integer(0);
  event.id = row.text(1);
  event.replica = row.text(2);
  event.lamport = row.integer(3);
  event.type = row.text(4);
  event.schema_version = static_cast<int>(row.integer(5));
  event.time_ms = row.integer(6);
  event.payload = json::parse(row.text(7), nullptr, false);
  return event;
}

std::string encode_event(const Event& event)
{
  const json line = {{"id", event.id},
                     {"replica", event.replica},
                     {"lamport", event.lamport},
                     {"type", event.type},
                     {"schema_version", event.schema_version},
                     {"time_ms", event.time_ms},
                     {"payload", event.payload}};
  return line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

nlohmann::json parse_bounded(std::string_view text)
{
  if (util::json_nesting_depth(text, k_max_event_nesting) > k_max_event_nesting) {
    return json(json::value_t::discarded);
  }
  return json::parse(text, nullptr, false);
}

namespace {

// What was wrong with a part's first bad line, and its number within the part.
struct LineProblem {
  std::size_t line = 0;
  std::string what;
};

std::vector<Event> decode_lines(std::string_view lines, int& bad, LineProblem& first_problem)
{
  std::size_t line_number = 0;
  std::vector<Event> events;
  for (const auto line : util::split_views(lines, '\n')) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      continue;
    }
    if (util::json_nesting_depth(line, k_max_event_nesting) > k_max_event_nesting) {
      if (bad++ == 0) {
        first_problem = {line_number,
                         fmt::format("nests arrays or objects deeper than {} levels", k_max_event_nesting)};
      }
      continue;
    }
    auto parsed = json::parse(line, nullptr, false);
    Event event;
    if (parsed.is_object()) {
      // Moved out of the parsed line, which is dropped after: copying payloads was a tenth of a decode.
      const auto text = [&](const char* key) {
        const auto it = parsed.find(key);
        return it != parsed.end() && it->is_string() ? std::move(it->get_ref<std::string&>()) : std::string();
      };
      const auto integer = [&](const char* key, std::int64_t fallback) {
        const auto it = parsed.find(key);
        return it != parsed.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
      };
      event.id = text("id");
      event.replica = text("replica");
      event.lamport = integer("lamport", 0);
      event.type = text("type");
      event.schema_version = static_cast<int>(integer("schema_version", 1));
      event.time_ms = integer("time_ms", 0);
      if (const auto it = parsed.find("payload"); it != parsed.end()) {
        event.payload = std::move(*it);
      }
    }
    if (!parsed.is_object() || !valid_envelope(event)) {
      if (bad++ == 0) {
        first_problem = {line_number, "is not an event envelope (docs/events.md)"};
      }
      continue;
    }
    events.push_back(std::move(event));
  }
  return events;
}

} // namespace

// Parsing JSON is a fifth of an import: a large text is cut at line ends into one part per core,
// decoded in parallel and joined in order, so the result is the same as decoding it in one go.
std::vector<Event> decode_events(std::string_view lines, int* bad_lines, std::string* first_problem)
{
  constexpr std::size_t k_part_bytes = 4 << 20;
  const auto cores = std::max(1U, std::min(4U, std::thread::hardware_concurrency()));
  const auto parts = std::min<std::size_t>(cores, 1 + lines.size() / k_part_bytes);
  std::vector<std::string_view> pieces;
  std::size_t start = 0;
  for (std::size_t i = 1; i <= parts && start < lines.size(); ++i) {
    auto end = i == parts ? lines.size() : lines.find('\n', std::max(start, lines.size() * i / parts));
    end = end == std::string_view::npos ? lines.size() : end + 1;
    pieces.push_back(lines.substr(start, end - start));
    start = end;
  }
  std::vector<std::vector<Event>> decoded(pieces.size());
  std::vector<int> bad(pieces.size(), 0);
  std::vector<LineProblem> problems(pieces.size());
  std::vector<std::exception_ptr> failed(pieces.size());
  const auto decode = [&](std::size_t i) {
    try {
      decoded[i] = decode_lines(pieces[i], bad[i], problems[i]);
    } catch (...) {
      failed[i] = std::current_exception(); // out of memory: rethrown below, never lost in a thread
    }
  };
  {
    std::vector<std::jthread> workers;
    for (std::size_t i = 1; i < pieces.size(); ++i) {
      workers.emplace_back(decode, i);
    }
    if (!pieces.empty()) {
      decode(0);
    }
  }
  for (const auto& failure : failed) {
    if (failure) {
      std::rethrow_exception(failure);
    }
  }
  auto events = pieces.empty() ? std::vector<Event>() : std::move(decoded[0]);
  for (std::size_t i = 1; i < decoded.size(); ++i) {
    std::move(decoded[i].begin(), decoded[i].end(), std::back_inserter(events));
  }
  if (bad_lines != nullptr) {
    *bad_lines = std::accumulate(bad.begin(), bad.end(), 0);
  }
  if (first_problem != nullptr) {
    first_problem->clear();
    std::size_t lines_before = 0; // of the parts before: a part's line numbers count from its start
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (bad[i] > 0) {
        *first_problem = fmt::format("line {} {}", lines_before + problems[i].line, problems[i].what);
        break;
      }
      lines_before += static_cast<std::size_t>(std::count(pieces[i].begin(), pieces[i].end(), '\n'));
    }
  }
  return events;
}

std::vector<Event> events_of_replica_after(Database& db, const std::string& replica, std::int64_t after_seq)
{
  auto select = db.prepare(
      fmt::format("SELECT {} FROM events WHERE replica = ? AND seq > ? ORDER BY seq", k_event_columns));
  select.bind(1, replica).bind(2, after_seq);
  std::vector<Event> events;
  while (select.step()) {
    events.push_back(read_event(select));
  }
  return events;
}

std::vector<Event> all_events(Database& db)
{
  auto select =
      db.prepare(fmt::format("SELECT {} FROM events ORDER BY lamport, replica, id", k_event_columns));
  std::vector<Event> events;
  while (select.step()) {
    events.push_back(read_event(select));
  }
  return events;
}

std::vector<Event> plan_events(Database& db, const std::string& plan)
{
  // The plan's runs: those of its attempts, and those its baselines pin, which need not belong to
  // an attempt (a baseline measured on its own) or may belong to another plan's.
  std::set<std::int64_t> runs;
  std::set<std::string> run_ids;
  {
    auto select = db.prepare(
        "SELECT number, id FROM runs WHERE attempt IN (SELECT number FROM attempts WHERE plan = ?1) OR "
        "number IN (SELECT run FROM baselines WHERE plan = ?1)");
    select.bind(1, plan);
    while (select.step()) {
      runs.insert(select.integer(0));
      run_ids.insert(select.text(1));
    }
  }
  // The plan's attempts, and what its pinned runs name outside it: another plan's attempt (only
  // its creation: its history stays with its plan) and that plan.
  std::set<std::int64_t> own_attempts;
  std::set<std::string> attempt_ids;
  std::set<std::string> plans{plan};
  {
    auto select =
        db.prepare("SELECT number, id, plan FROM attempts WHERE plan = ?1 OR number IN (SELECT r.attempt "
                   "FROM runs r JOIN baselines b ON b.run = r.number WHERE b.plan = ?1)");
    select.bind(1, plan);
    while (select.step()) {
      if (select.text(2) == plan) {
        own_attempts.insert(select.integer(0));
      }
      attempt_ids.insert(select.text(1));
      plans.insert(select.text(2));
    }
  }
  std::vector<Event> out;
  for (auto& event : all_events(db)) {
    const auto& type = event.type;
    const auto& payload = event.payload;
    bool keep = false;
    if (type == events::BaselinePinned::type || type == events::BaselineExplained::type) {
      keep = payload.value("plan", "") == plan;
    } else if (type.rfind("plan.", 0) == 0) {
      keep = plans.count(payload.value("plan", payload.value("slug", ""))) != 0;
    } else if (type.rfind("bench.", 0) == 0 || type.rfind("probe.", 0) == 0 ||
               type == events::StepAcknowledged::type || type == events::StepLocated::type) {
      keep = true;
    } else if (type == events::AttemptCreated::type) {
      keep = attempt_ids.count(event.id) != 0;
    } else if (type.rfind("attempt.", 0) == 0) {
      keep = own_attempts.count(projection::attempt_number(
                 db, event, events::Ref::from_json(payload.value("attempt", json())))) != 0;
    } else if (type == events::RunStarted::type || type == events::RunImported::type) {
      keep = run_ids.count(event.id) != 0;
    } else if (type.rfind("run.", 0) == 0) {
      keep = runs.count(projection::run_number(db, event,
                                               events::Ref::from_json(payload.value("run", json())))) != 0;
    } else if (type == events::NumbersClaimed::type) {
      // The numbers the remote gave: kept whole (an event is never cut), so that the plan's
      // attempts and runs read with the numbers they have here; the other ids it names are unknown
      // to the importer and number nothing there.
      const auto claim = events::NumbersClaimed::read(event);
      const auto& ids = claim.kind == "attempts" ? attempt_ids : run_ids;
      keep = std::any_of(claim.ids.begin(), claim.ids.end(),
                         [&](const std::string& id) { return ids.count(id) != 0; });
    }
    if (keep) {
      out.push_back(std::move(event));
    }
  }
  return out;
}

std::int64_t last_seq(Database& db)
{
  return db.query_integer("SELECT coalesce(max(seq), 0) FROM events");
}

std::vector<std::string> blobs_named(const std::vector<Event>& events)
{
  std::set<std::string> hashes;
  for (const auto& event : events) {
    collect_blobs(event.payload, hashes);
  }
  return {hashes.begin(), hashes.end()};
}

std::int64_t highest_clock_except(Database& db, const std::string& replica)
{
  // Backwards along the (lamport, replica, id) index: stops at the first event of another replica.
  auto select = db.prepare("SELECT lamport FROM events WHERE replica <> ? ORDER BY lamport DESC LIMIT 1");
  select.bind(1, replica);
  return select.step() ? select.integer(0) : 0;
}

std::optional<std::string> clock_refusal(const Event& event, std::int64_t others_highest)
{
  if (event.lamport >= k_clock_ceiling) {
    return fmt::format("event {} ({}) of replica {} has the Lamport clock {}, beyond the {} ej accepts",
                       event.id, event.type, event.replica, event.lamport, k_clock_ceiling);
  }
  if (event.lamport - others_highest > k_max_clock_lead) {
    return fmt::format(
        "event {} ({}) of replica {} has the Lamport clock {}, {} ahead of every other replica's "
        "(at most {} is accepted)",
        event.id, event.type, event.replica, event.lamport, event.lamport - others_highest, k_max_clock_lead);
  }
  return std::nullopt;
}

namespace {

// Refuses the import when an event's clock is out of bounds: each replica's events against the
// highest clock of every other replica, in the journal or arriving with them.
void check_clocks(Database& db, const std::vector<Event>& fresh)
{
  std::map<std::string, std::int64_t> highest; // arriving, by replica (those below the ceiling)
  for (const auto& event : fresh) {
    if (event.lamport < k_clock_ceiling) {
      auto& value = highest[event.replica];
      value = std::max(value, event.lamport);
    }
  }
  std::map<std::string, std::int64_t> others; // by replica: the highest of every other one
  for (const auto& event : fresh) {
    auto [it, added] = others.try_emplace(event.replica, 0);
    if (added) {
      it->second = highest_clock_except(db, event.replica);
      for (const auto& [replica, clock] : highest) {
        if (replica != event.replica) {
          it->second = std::max(it->second, clock);
        }
      }
    }
    if (const auto why = clock_refusal(event, it->second)) {
      throw Error("{}: nothing was imported. An event far ahead of every other would drag every later clock "
                  "there; ask whoever holds that replica where it came from",
                  *why);
    }
  }
}

} // namespace

ImportReport import_events(Journal& journal, std::vector<Event> events,
                           const std::function<std::optional<std::string>(const std::string&)>& blob,
                           const std::function<void(Database&)>& extra)
{
  ImportReport report;
  // A large import touches pages all over the events' and the derived tables' indexes (ids are
  // random): a page cache that holds them saves reading them again and again.
  if (events.size() > 10000) {
    journal.db().exec("PRAGMA cache_size = -131072");
  }
  journal.write([&](Writer& writer) {
    auto& db = journal.db();
    Order applied_up_to{0, "", ""};
    {
      auto last = db.prepare(
          "SELECT lamport, replica, id FROM events ORDER BY lamport DESC, replica DESC, id DESC LIMIT 1");
      if (last.step()) {
        applied_up_to = {last.integer(0), last.text(1), last.text(2)};
      }
    }
    std::vector<Event> fresh;
    fresh.reserve(events.size());
    for (auto& event : events) {
      if (writer.insert_event(event)) {
        fresh.push_back(std::move(event)); // no copy of the payloads: an import holds every event once
      } else {
        ++report.known;
      }
    }
    report.received = static_cast<int>(fresh.size());
    check_clocks(db, fresh);
    auto has_blob = db.prepare("SELECT 1 FROM blobs WHERE hash = ?");
    for (const auto& hash : blobs_named(fresh)) {
      has_blob.reset();
      has_blob.bind(1, hash);
      if (has_blob.step()) {
        continue;
      }
      const auto content = blob(hash);
      if (!content || util::sha256_hex(*content) != hash) {
        report.missing_blobs.push_back(hash);
        continue;
      }
      writer.insert_blob_as_is(hash, *content);
      ++report.blobs;
    }
    std::sort(fresh.begin(), fresh.end(), [](const Event& a, const Event& b) {
      return std::tie(a.lamport, a.replica, a.id) < std::tie(b.lamport, b.replica, b.id);
    });
    const bool in_order = fresh.empty() || Order{fresh.front().lamport, fresh.front().replica,
                                                 fresh.front().id} > applied_up_to;
    if (!in_order || !apply_events(db, fresh)) {
      rebuild_derived_tables(db);
    }
    if (extra) {
      extra(db);
    }
  });
  return report;
}

std::optional<std::string> meta_value(Database& db, const std::string& key)
{
  auto select = db.prepare("SELECT value FROM meta WHERE key = ?");
  select.bind(1, key);
  return select.step() ? std::optional(select.text(0)) : std::nullopt;
}

void set_meta_value(Database& db, const std::string& key, const std::string& value)
{
  db.prepare(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .bind(1, key)
      .bind(2, value)
      .run();
}

} // namespace ej::store
