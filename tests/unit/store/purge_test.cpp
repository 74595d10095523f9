#include "store/event_exchange.h"
#include "store/fsck.h"
#include "store/journal.h"
#include "store/purge.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/hash.h"

#include <catch2/catch.hpp>

using namespace ej;
using nlohmann::json;

namespace {

std::int64_t count(store::Journal& journal, const std::string& sql)
{
  return journal.db().query_integer(sql);
}

} // namespace

TEST_CASE("a redacted value and token shapes never reach an event or a blob")
{
  auto journal = store::Journal::open_memory();
  journal.redactor().add_value("leaked-42");
  std::string hash;
  journal.write([&](store::Writer& writer) {
    writer.append("plan.created", {{"slug", "p"},
                                   {"title", "has leaked-42 and hf_abcdefghijklmnopqrstuvwxyz"},
                                   {"goal", "bell\x07"},
                                   {"target", ""},
                                   {"doc", "d.md"}});
    hash = writer.put_blob("out: leaked-42\n");
  });
  CHECK(journal.blob(hash) == "out: <redacted>\n");
  const auto plan = store::find_plan(journal.db(), "p");
  REQUIRE(plan);
  CHECK(plan->title == "has <redacted> and <redacted>");
  CHECK(plan->goal == "bell\xe2\x90\x87");
}

TEST_CASE("purge rewrites events and blobs, moves blob references, records counts and keeps the journal "
          "consistent")
{
  auto journal = store::Journal::open_memory();
  std::string hash;
  journal.write([&](store::Writer& writer) {
    writer.append(
        "plan.created",
        {{"slug", "p"}, {"title", "Plan"}, {"goal", "pw Zq8leak"}, {"target", ""}, {"doc", "d.md"}});
    hash = writer.put_blob("diff with Zq8leak inside");
    writer.append("attempt.created", {{"attempt", 1},
                                      {"plan", "p"},
                                      {"title", "t"},
                                      {"hypothesis", "Zq8leak"},
                                      {"command", ""},
                                      {"tags", json::array()},
                                      {"links", json::array()},
                                      {"git", {{"commit", "abc"}, {"dirty", true}, {"diff_blob", hash}}}});
  });
  CHECK_THROWS_AS(store::purge_value(journal, "Zq8"), Error);

  const auto report = store::purge_value(journal, "Zq8leak");
  CHECK(report.events == 2);
  CHECK(report.blobs == 1);
  CHECK(count(journal, "SELECT count(*) FROM events WHERE instr(payload, 'Zq8leak') > 0") == 0);
  CHECK(count(journal, "SELECT count(*) FROM blobs WHERE instr(CAST(content AS TEXT), 'Zq8leak') > 0") == 0);
  CHECK(count(journal, "SELECT count(*) FROM blobs") == 1);
  CHECK(count(journal, "SELECT count(*) FROM events WHERE type = 'journal.purged' AND "
                       "payload = '{\"blobs\":1,\"events\":2}'") == 1);
  const auto attempt = store::find_attempt(journal.db(), 1);
  REQUIRE(attempt);
  CHECK(attempt->hypothesis == "<redacted>");
  CHECK(journal.blob(attempt->git.diff_blob) == "diff with <redacted> inside");
  // Events are immutable again, and everything replays to the same tables.
  CHECK_THROWS(journal.db().exec("UPDATE events SET payload = '{}'"));
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("published events are read again from the purged journal, and published blobs lose the value")
{
  auto journal = store::Journal::open_memory();
  std::string hash;
  journal.write([&](store::Writer& writer) {
    hash = writer.put_blob("log with Pw9-secret-x inside");
    writer.append("plan.created", {{"slug", "p"},
                                   {"title", "Pw9-secret-x"},
                                   {"goal", ""},
                                   {"target", ""},
                                   {"doc", "d.md"},
                                   {"log_blob", hash}});
  });
  const auto published = store::encode_event(store::all_events(journal.db()).front());
  CHECK(store::holds_value(published, "Pw9-secret-x"));
  CHECK(store::holds_value("say \\\"a\\\"", "say \"a\"")); // as JSON escapes it
  store::purge_value(journal, "Pw9-secret-x");
  const auto again = store::events_as_stored(journal.db(), published + "{\"id\":\"gone\"}\n", "Pw9-secret-x");
  CHECK_FALSE(store::holds_value(again, "Pw9-secret-x"));
  CHECK_THAT(again, !Catch::Contains(hash));     // the blob's new hash is named instead
  CHECK(again.ends_with("{\"id\":\"gone\"}\n")); // not in the journal: kept, value replaced
  const auto blob = store::without_value("log with Pw9-secret-x inside", "Pw9-secret-x");
  REQUIRE(blob);
  CHECK(*blob == "log with <redacted> inside");
  CHECK_THAT(again, Catch::Contains(util::sha256_hex(*blob)));
  CHECK_FALSE(store::without_value("nothing here", "Pw9-secret-x"));
}
