// Every event type read back from what its builder wrote, payloads of version 1 read forever, and
// events of unknown types kept without an error.
#include "store/event_exchange.h"
#include "store/events.h"
#include "store/journal.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

using namespace ej;
using nlohmann::json;
namespace events = store::events;

namespace {

store::Event as_event(std::string_view type, json payload, int version = store::k_event_schema_version)
{
  store::Event event;
  event.type = std::string(type);
  event.payload = std::move(payload);
  event.schema_version = version;
  return event;
}

} // namespace

TEST_CASE("each builder's payload reads back through its reader")
{
  events::AttemptCreated created;
  created.number = 7;
  created.plan = "p";
  created.title = "fused allreduce";
  created.tags = {"nccl"};
  created.links = {{"supersedes", events::Ref::to("01JD0000000000000000000001")}};
  created.git.commit = "abc";
  created.git.dirty = true;
  const auto read = events::AttemptCreated::read(as_event(events::AttemptCreated::type, created.payload()));
  CHECK(read.number == 7);
  CHECK(read.title == "fused allreduce");
  CHECK(read.tags == std::vector<std::string>{"nccl"});
  REQUIRE(read.links.size() == 1);
  CHECK(read.links[0].to.id == "01JD0000000000000000000001");
  CHECK(read.git.dirty);

  events::RunRepeats batch;
  batch.run = events::Ref::to("01JD0000000000000000000002");
  events::Repeat repeat;
  repeat.index = 3;
  repeat.wall_s = 0.25;
  repeat.samples = {{"time_ms", "", 11.5, "ms", core::SampleKind::Sample},
                    {"bw", "1MiB", 40, "GB/s", core::SampleKind::Aggregate}};
  batch.repeats.push_back(repeat);
  const auto batch_read = events::RunRepeats::read(as_event(events::RunRepeats::type, batch.payload()));
  CHECK(batch_read.run.id == "01JD0000000000000000000002");
  REQUIRE(batch_read.repeats.size() == 1);
  CHECK(batch_read.repeats[0].index == 3);
  CHECK(batch_read.repeats[0].samples[1].kind == core::SampleKind::Aggregate);

  events::AttemptEdited edit;
  edit.attempt = events::Ref::to("01JD0000000000000000000003");
  CHECK(edit.changes_nothing());
  edit.title = "new title";
  const auto edit_read = events::AttemptEdited::read(as_event(events::AttemptEdited::type, edit.payload()));
  CHECK(edit_read.title == "new title");
  CHECK_FALSE(edit_read.hypothesis);

  const events::StepAcknowledged ack{"decode", "tok_s", "0123456789abcdef0123456789abcdef01234567",
                                     "expected"};
  const auto ack_read =
      events::StepAcknowledged::read(as_event(events::StepAcknowledged::type, ack.payload()));
  CHECK(ack_read.bench == "decode");
  CHECK(ack_read.metric == "tok_s");
  CHECK(ack_read.commit == ack.commit);
  CHECK(ack_read.reason == "expected");
  // Every metric: the field is left out, and reads back empty.
  const events::StepAcknowledged every{"decode", "", ack.commit, "expected"};
  CHECK_FALSE(every.payload().contains("metric"));
  CHECK(events::StepAcknowledged::read(as_event(events::StepAcknowledged::type, every.payload()))
            .metric.empty());
}

TEST_CASE("an ej bisect answer and the band of a bisect comparison read back, unbounded ends as null")
{
  events::StepLocated located;
  located.bench = "decode";
  located.metric = "tok_s";
  located.params = "batch=1";
  located.good = std::string(40, 'a');
  located.bad = std::string(40, 'b');
  located.candidates = {std::string(40, 'c'), located.bad};
  located.skipped = {{std::string(40, 'c'), "its build failed (run #3)"}};
  located.min_effect_pct = 12.5;
  located.candidate = events::Ref::to("01JD0000000000000000000001");
  located.reference = events::Ref::to("01JD0000000000000000000002");
  located.log_ratio = false;
  located.estimate = -4;
  located.low = -std::numeric_limits<double>::infinity();
  located.high = -1;
  located.unit = "tok/s";
  const auto payload = located.payload();
  CHECK(payload["low"].is_null());
  CHECK(payload["scale"] == "difference");
  const auto read = events::StepLocated::read(as_event(events::StepLocated::type, payload));
  CHECK(read.bench == "decode");
  CHECK(read.metric == "tok_s");
  CHECK(read.params == "batch=1");
  CHECK(read.first_bad.empty());
  CHECK(read.candidates == located.candidates);
  REQUIRE(read.skipped.size() == 1);
  CHECK(read.skipped[0].why == "its build failed (run #3)");
  CHECK(read.min_effect_pct == 12.5);
  CHECK(read.candidate.id == "01JD0000000000000000000001");
  CHECK(read.reference.id == "01JD0000000000000000000002");
  CHECK_FALSE(read.log_ratio);
  CHECK(read.estimate == -4);
  CHECK(std::isinf(read.low));
  CHECK(read.high == -1);
  CHECK(read.unit == "tok/s");

  events::ComparisonInterleaved comparison;
  CHECK_FALSE(comparison.payload().contains("metric"));
  CHECK_FALSE(comparison.payload().contains("min_effect_pct"));
  comparison.metric = "tok_s";
  comparison.min_effect_pct = 12.5;
  const auto design = events::ComparisonInterleaved::read(
      as_event(events::ComparisonInterleaved::type, comparison.payload()));
  CHECK(design.metric == "tok_s");
  CHECK(design.min_effect_pct == 12.5);
  CHECK_FALSE(
      events::ComparisonInterleaved::read(as_event(events::ComparisonInterleaved::type, json::object()))
          .min_effect_pct);
}

TEST_CASE("a version-1 payload names attempts by number, a version-2 one by id")
{
  const auto v1 = events::AttemptNote::read(as_event(events::AttemptNote::type, {{"attempt", 12}, {"text", "x"}}, 1));
  CHECK(v1.attempt.number == 12);
  CHECK(v1.attempt.id.empty());
  const auto v2 = events::AttemptNote::read(
      as_event(events::AttemptNote::type, {{"attempt", "01JD0000000000000000000004"}, {"text", "x"}}));
  CHECK(v2.attempt.id == "01JD0000000000000000000004");
  // Mistyped or missing fields take their defaults; a reader never throws.
  const auto odd = events::RunFinished::read(as_event(events::RunFinished::type, {{"run", true}, {"status", 3}}));
  CHECK(odd.run.empty());
  CHECK(odd.status == core::RunStatus::Failed); // a status this ej cannot read is no run to judge
  CHECK(events::PlanCreated::read(as_event(events::PlanCreated::type, json::array())).slug.empty());
}

TEST_CASE("every type is known to the projection and documented in docs/events.md")
{
  std::ifstream doc(std::string(EJ_SOURCE_DIR) + "/docs/events.md");
  REQUIRE(doc);
  const std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  for (const auto type : events::known_types()) {
    INFO(type);
    CHECK(text.find("`" + std::string(type) + "`") != std::string::npos);
  }
}

TEST_CASE("an event of an unknown type is kept, exported and changes no table")
{
  auto journal = store::Journal::open_memory();
  journal.write([](store::Writer& writer) {
    writer.append(events::PlanCreated{"p", "Plan", "", "", "p.md"});
    writer.append("gpu.sampled", {{"sm_mhz", 1980}});
  });
  CHECK(store::find_plan(journal.db(), "p"));
  const auto all = store::all_events(journal.db());
  REQUIRE(all.size() == 2);
  CHECK(all[1].type == "gpu.sampled");
  const auto line = store::encode_event(all[1]);
  int bad = 0;
  const auto back = store::decode_events(line + "not json\n{\"id\": 3}\n", &bad);
  REQUIRE(back.size() == 1);
  CHECK(back[0].payload["sm_mhz"] == 1980);
  CHECK(bad == 2);
}

TEST_CASE("a text of many megabytes decodes, in parts, to the same events in the same order")
{
  std::string lines;
  for (int lamport = 1; lamport <= 40000; ++lamport) {
    store::Event event;
    event.id = fmt::format("01J{:023}", lamport);
    event.replica = "r";
    event.lamport = lamport;
    event.type = "test.filler";
    event.schema_version = 2;
    event.payload = {{"text", std::string(200, 'x') + std::to_string(lamport)}};
    lines += store::encode_event(event);
    if (lamport % 9999 == 0) {
      lines += "not an event\n"; // bad lines in several parts, counted once each
    }
  }
  REQUIRE(lines.size() > 8U << 20); // more than one part
  int bad = 0;
  std::string problem;
  const auto back = store::decode_events(lines, &bad, &problem);
  REQUIRE(back.size() == 40000);
  CHECK(bad == 4);
  CHECK(problem == "line 10000 is not an event envelope (docs/events.md)");
  for (std::size_t i = 1; i < back.size(); ++i) {
    REQUIRE(back[i].lamport == back[i - 1].lamport + 1);
  }
  CHECK(back.back().payload["text"] == std::string(200, 'x') + "40000");
}

TEST_CASE("a line nested deeper than the bound is never parsed, and the first bad line is said by number")
{
  store::Event event = as_event("plan.created", {{"slug", "p"}});
  event.id = "01J00000000000000000000001";
  event.replica = "r";
  event.lamport = 1;
  const std::string deep = "{\"id\": " + std::string(1000000, '[') + std::string(1000000, ']') + "}\n";
  int bad = 0;
  std::string problem;
  const auto back = store::decode_events(store::encode_event(event) + deep + "not json\n", &bad, &problem);
  CHECK(back.size() == 1);
  CHECK(bad == 2);
  CHECK(problem == "line 2 nests arrays or objects deeper than 64 levels");
  CHECK(store::parse_bounded(std::string(65, '[') + std::string(65, ']')).is_discarded());
  CHECK(store::parse_bounded(std::string(64, '[') + std::string(64, ']')).is_array());
}

TEST_CASE("an event whose clock is far ahead of every other replica's is refused with its replica named")
{
  auto journal = store::Journal::open_memory();
  const auto none = [](const std::string&) { return std::optional<std::string>(); };
  auto plan = as_event("plan.created", {{"slug", "p"}, {"title", "P"}, {"doc", "p.md"}});
  plan.id = "01J00000000000000000000001";
  plan.replica = "honest";
  plan.lamport = 7;
  auto ahead = as_event("plan.edited", {{"slug", "p"}, {"title", "from the end of time"}});
  ahead.id = "01J00000000000000000000002";
  ahead.replica = "crafted";
  ahead.lamport = 7 + store::k_max_clock_lead + 1;
  try {
    store::import_events(journal, {plan, ahead}, none);
    FAIL("imported");
  } catch (const Error& error) {
    CHECK_THAT(error.what(), Catch::Contains("replica crafted") && Catch::Contains("Lamport clock"));
  }
  CHECK(journal.db().query_integer("SELECT count(*) FROM events") == 0);
  ahead.lamport = 7 + store::k_max_clock_lead; // as far ahead as a replica may be
  CHECK(store::import_events(journal, {plan, ahead}, none).received == 2);
  CHECK(store::clock_refusal(ahead, 0));                          // without the honest one, too far ahead
  ahead.lamport = store::k_clock_ceiling;                         // and never at the ceiling,
  CHECK(store::clock_refusal(ahead, store::k_clock_ceiling - 1)); // whatever the others' clocks
}

TEST_CASE("importing events twice changes nothing, older events rebuild the tables in event order")
{
  auto source = store::Journal::open_memory();
  source.write([](store::Writer& writer) {
    writer.append(events::PlanCreated{"p", "Plan", "", "", "p.md"});
    events::AttemptCreated created;
    created.number = 1;
    created.plan = "p";
    created.title = "first";
    writer.append(created);
  });
  const auto exported = store::all_events(source.db());
  auto target = store::Journal::open_memory();
  const auto none = [](const std::string&) { return std::optional<std::string>(); };
  CHECK(store::import_events(target, exported, none).received == 2);
  const auto again = store::import_events(target, exported, none);
  CHECK(again.received == 0);
  CHECK(again.known == 2);
  const auto attempt = store::find_attempt(target.db(), 1);
  REQUIRE(attempt);
  CHECK(attempt->title == "first");
}

TEST_CASE("version 3 fields read back: a run's --env overrides and a code state's large untracked files, "
          "absent in older payloads")
{
  events::RunStarted started;
  started.bench = "b";
  started.env = {{"FACTOR", "7"}, {"API_TOKEN", "<redacted>"}};
  started.git.commit = "abc";
  started.git.large_untracked = {{"big.bin", 2097159, "ff00", "", false},
                                 {"run.sh", 3000000, "aa11", "aa11", true}};
  const auto payload = started.payload();
  const auto read = events::RunStarted::read(as_event(events::RunStarted::type, payload));
  CHECK(read.env == started.env);
  REQUIRE(read.git.large_untracked.size() == 2);
  CHECK(read.git.large_untracked[0].path == "big.bin");
  CHECK(read.git.large_untracked[0].size == 2097159);
  CHECK_FALSE(read.git.large_untracked[0].stored());
  CHECK(read.git.large_untracked[1].executable);
  CHECK(read.git.left_out().size() == 1);
  // The stored file's blob is named where sync and export look for blobs.
  CHECK(payload["git"]["large_untracked"][1]["content_blob"] == "aa11");

  json older = payload;
  older.erase("env");
  older["git"].erase("large_untracked");
  const auto old = events::RunStarted::read(as_event(events::RunStarted::type, older, 2));
  CHECK(old.env.empty());
  CHECK(old.git.large_untracked.empty());
  events::RunStarted plain;
  CHECK_FALSE(plain.payload().contains("env"));
  CHECK_FALSE(plain.payload()["git"].contains("large_untracked"));
}
