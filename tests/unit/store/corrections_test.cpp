// Corrections of the record: links changed after the fact, runs withdrawn and restored, a reason
// given to a baseline pin later. Each is an event: read back through its reader, projected into the
// derived tables, rebuilt the same by a reindex, and forgetting the verdict lines kept before it.
#include "core/status.h"
#include "store/events.h"
#include "store/fsck.h"
#include "store/journal.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "store/verdict_cache.h"

#include <catch2/catch.hpp>

using namespace ej;
using nlohmann::json;
namespace events = store::events;

namespace {

store::Event correction_event(std::string_view type, json payload)
{
  store::Event event;
  event.type = std::string(type);
  event.payload = std::move(payload);
  return event;
}

// Plan p, attempts #1 (the blocker), #2 (blocked) and #3 (its retry), run #1 of #2, pinned as p's
// baseline, and run #2 of #3.
struct CorrectionsCampaign {
  store::Journal journal = store::Journal::open_memory();
  std::string attempt_ids[4];
  std::string run_ids[3];

  CorrectionsCampaign()
  {
    journal.write([&](store::Writer& writer) {
      writer.append(events::PlanCreated{"p", "Plan", "", "", "p.md"});
      for (int number = 1; number <= 3; ++number) {
        events::AttemptCreated created;
        created.number = number;
        created.plan = "p";
        created.title = "attempt " + std::to_string(number);
        attempt_ids[number] = writer.append(created).id;
      }
      writer.append(events::BenchRevision{false, "b", 1, json::object()});
      for (int number = 1; number <= 2; ++number) {
        events::RunStarted started;
        started.number = number;
        started.bench = "b";
        started.revision = 1;
        started.attempt = events::Ref::to(attempt_ids[number + 1]);
        run_ids[number] = writer.append(started).id;
        writer.append(events::RunFinished{events::Ref::to(run_ids[number]), core::RunStatus::Finished, "",
                                          json::object()});
      }
      writer.append(events::BaselinePinned{"p", "b", events::Ref::to(run_ids[1]), ""});
    });
  }
  events::Ref attempt(int number) const { return events::Ref::to(attempt_ids[number]); }
  events::Ref run(int number) const { return events::Ref::to(run_ids[number]); }
};

std::vector<core::Link> links_of(store::Journal& journal, int number)
{
  return store::load_history(journal.db(), *store::find_attempt(journal.db(), number)).links_out;
}

} // namespace

TEST_CASE("the correction events read back through their readers, with defaults for what is missing")
{
  events::AttemptLinked linked{events::Ref::to("01JD0000000000000000000001"),
                               {{"blocked-by", events::Ref::to("01JD0000000000000000000002")}},
                               {{"retry-of", events::Ref{"", 4}}}};
  const auto linked_read =
      events::AttemptLinked::read(correction_event(events::AttemptLinked::type, linked.payload()));
  CHECK(linked_read.attempt.id == "01JD0000000000000000000001");
  REQUIRE(linked_read.add.size() == 1);
  CHECK(linked_read.add[0].kind == "blocked-by");
  CHECK(linked_read.add[0].to.id == "01JD0000000000000000000002");
  REQUIRE(linked_read.remove.size() == 1);
  CHECK(linked_read.remove[0].to.number == 4);

  const events::RunWithdrawal withdrawn{false, events::Ref::to("01JD0000000000000000000003"), "debug build"};
  CHECK(withdrawn.event_type() == "run.withdrawn");
  const auto withdrawn_read =
      events::RunWithdrawal::read(correction_event(withdrawn.event_type(), withdrawn.payload()));
  CHECK_FALSE(withdrawn_read.restored);
  CHECK(withdrawn_read.reason == "debug build");
  const events::RunWithdrawal restored{true, events::Ref::to("01JD0000000000000000000003"), ""};
  CHECK(events::RunWithdrawal::read(correction_event(restored.event_type(), restored.payload())).restored);

  const events::BaselineExplained explained{"p", "b", "01JD0000000000000000000005", "CUDA 12.8 stock"};
  const auto explained_read =
      events::BaselineExplained::read(correction_event(events::BaselineExplained::type, explained.payload()));
  CHECK(explained_read.pin == "01JD0000000000000000000005");
  CHECK(explained_read.reason == "CUDA 12.8 stock");

  const auto odd = events::AttemptLinked::read(correction_event(events::AttemptLinked::type, {{"add", 3}}));
  CHECK(odd.add.empty());
  CHECK(odd.attempt.empty());
}

TEST_CASE("a blocker added and removed after the fact changes the links, and a reindex agrees")
{
  CorrectionsCampaign c;
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::AttemptLinked{c.attempt(2), {{"blocked-by", c.attempt(1)}}, {}});
  });
  REQUIRE(links_of(c.journal, 2).size() == 1);
  CHECK(links_of(c.journal, 2)[0].kind == "blocked-by");
  CHECK(links_of(c.journal, 2)[0].to == 1);
  CHECK(store::check_journal(c.journal.db(), true).problems.empty());
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::AttemptLinked{c.attempt(2), {}, {{"blocked-by", c.attempt(1)}}});
  });
  CHECK(links_of(c.journal, 2).empty());
  store::reindex_journal(c.journal.db());
  CHECK(links_of(c.journal, 2).empty());
  CHECK(store::check_journal(c.journal.db(), true).problems.empty());
}

TEST_CASE("a blocked attempt reads resolved by its retries once they are adopted, and only while blocked")
{
  CorrectionsCampaign c;
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::AttemptStatus{c.attempt(2), "blocked", "needs #1", {}});
    writer.append(events::AttemptLinked{c.attempt(3), {{"retry-of", c.attempt(2)}}, {}});
  });
  CHECK(store::find_attempt(c.journal.db(), 2)->resolved_by.empty()); // the retry is not adopted yet
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::AttemptStatus{c.attempt(3), "adopted", "+4%", {}});
  });
  CHECK(store::find_attempt(c.journal.db(), 2)->resolved_by == std::vector<int>{3});
  store::AttemptFilter filter;
  filter.plan = "p";
  const auto listed = store::list_attempts(c.journal.db(), filter);
  REQUIRE(listed.size() == 3);
  CHECK(listed[1].resolved_by == std::vector<int>{3});
  CHECK(listed[0].resolved_by.empty());
  CHECK(core::resolved_text({3}) == "resolved by #3");
  CHECK(core::resolved_text({3, 5, 9}) == "resolved by #3, #5 and #9");
  // Rejected since: the story is then its own reason, no longer a blocked attempt.
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::AttemptStatus{c.attempt(2), "rejected", "the retry replaced it", {}});
  });
  CHECK(store::find_attempt(c.journal.db(), 2)->resolved_by.empty());
}

TEST_CASE("a withdrawn run is marked with when and why, a restored one is not, and the history keeps both")
{
  CorrectionsCampaign c;
  ::setenv("EJ_NOW", "2026-03-01T10:00:00Z", 1);
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::RunWithdrawal{false, c.run(2), "measured on the debug build"});
  });
  auto run = store::find_run(c.journal.db(), 2);
  REQUIRE(run);
  CHECK(run->withdrawn());
  CHECK(run->withdrawn_reason == "measured on the debug build");
  store::RunFilter filter;
  filter.plan = "p";
  CHECK(store::list_runs(c.journal.db(), filter).front().withdrawn());
  store::PlanStream stream(c.journal.db(), "p");
  const auto streamed = stream.runs(3);
  REQUIRE(streamed.size() == 1);
  CHECK(streamed[0].withdrawn()); // what documents and judgements read
  CHECK(store::check_journal(c.journal.db(), true).problems.empty());

  ::setenv("EJ_NOW", "2026-03-02T10:00:00Z", 1);
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::RunWithdrawal{true, c.run(2), "it was the release build after all"});
  });
  ::unsetenv("EJ_NOW");
  CHECK_FALSE(store::find_run(c.journal.db(), 2)->withdrawn());
  const auto history = store::run_withdrawals(c.journal.db(), 2);
  REQUIRE(history.size() == 2);
  CHECK(history[0].withdrawn);
  CHECK_FALSE(history[1].withdrawn);
  CHECK(history[1].reason == "it was the release build after all");
  store::reindex_journal(c.journal.db());
  CHECK(store::run_withdrawals(c.journal.db(), 2).size() == 2);
  CHECK(store::check_journal(c.journal.db(), true).problems.empty());
}

TEST_CASE("a withdrawal changes the inputs of every kept verdict line, so none is read stale")
{
  CorrectionsCampaign c;
  const auto before = store::verdict_inputs_of_plan(c.journal.db(), "p");
  REQUIRE(before.count(3) == 1);
  store::keep_verdicts(c.journal.db(), "ej-test", {{3, before.at(3), std::string("-4.0% improved")}});
  const auto kept = store::look_up_verdicts(c.journal.db(), {3});
  REQUIRE(kept.at(3).cached);
  CHECK(kept.at(3).cached->inputs == kept.at(3).now);
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::RunWithdrawal{false, c.run(2), "debug build"});
  });
  const auto after = store::look_up_verdicts(c.journal.db(), {3});
  REQUIRE(after.at(3).cached);
  CHECK_FALSE(after.at(3).cached->inputs == after.at(3).now);
  CHECK(after.at(3).now.runs == before.at(3).runs); // the run is still there: counting runs cannot tell
}

TEST_CASE("a reason given to a pin later is its reason, and only that pin's")
{
  CorrectionsCampaign c;
  const auto pin = store::baseline_history(c.journal.db(), "p").at(0);
  CHECK(pin.reason.empty());
  CHECK_FALSE(pin.event_id.empty());
  c.journal.write([&](store::Writer& writer) {
    writer.append(events::BaselineExplained{"p", "b", pin.event_id, "stock SGLang on CUDA 12.8"});
    writer.append(events::BaselineExplained{"other", "b", pin.event_id, "not this plan's"});
  });
  CHECK(store::baseline_history(c.journal.db(), "p").at(0).reason == "stock SGLang on CUDA 12.8");
  CHECK(store::plans_with_current_baseline(c.journal.db(), 1) == std::vector<std::string>{"p"});
  CHECK(store::plans_with_current_baseline(c.journal.db(), 2).empty());
  store::reindex_journal(c.journal.db());
  CHECK(store::baseline_history(c.journal.db(), "p").at(0).reason == "stock SGLang on CUDA 12.8");
  CHECK(store::check_journal(c.journal.db(), true).problems.empty());
}
