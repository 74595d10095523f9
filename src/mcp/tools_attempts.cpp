#include "mcp/objects.h"
#include "mcp/tool.h"

#include "core/numbering.h"
#include "core/references.h"
#include "evidence/attempt_changes.h"
#include "evidence/attempt_queries.h"
#include "evidence/judgement.h"
#include "evidence/lookup.h"
#include "evidence/records_json.h"
#include "evidence/run_json.h"
#include "store/queries.h"
#include "util/error.h"

#include <fmt/format.h>

// The tools that read and change attempts: try, status, note, log, search, show, why, judge.
namespace ej::mcp {

namespace {

using nlohmann::json;
using namespace schema;

json listed(const char* name, const json& list)
{
  return evidence::with_schema(json{{name, evidence::with_schema(list)}});
}

std::string count_text(std::size_t n, const char* what)
{
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

Answer attempt_answer(store::Journal& journal, int number, std::string text,
                      const json& extra = json::object())
{
  auto out = evidence::to_json(evidence::require_attempt(journal, number));
  for (const auto& [key, value] : extra.items()) {
    out[key] = value;
  }
  return {evidence::with_schema(out), std::move(text)};
}

Answer try_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal(context.workspace);
  const int number = evidence::create_attempt(
      context.workspace, journal,
      {args.text("title"), args.text("plan"), args.text("hypothesis"), args.text("command"),
       args.texts("tags"), args.texts("supersedes"), args.texts("retry_of"), args.texts("blocked_by"), 0});
  const auto attempt = evidence::require_attempt(journal, number);
  return attempt_answer(journal, number,
                        fmt::format("recorded attempt {} in plan {}: {}", core::number_label(number),
                                    attempt.plan, attempt.title));
}

Answer status_tool(const Arguments& args, const Context& context)
{
  const int number = core::parse_attempt_number(args.name_of("id"));
  const auto status = evidence::parse_status_argument(args.text("status"));
  auto journal = measuring::open_journal(context.workspace);
  const auto previous =
      evidence::change_status(context.workspace, journal, number, status, args.text("reason"));
  return attempt_answer(journal, number,
                        fmt::format("{}: {} -> {}", core::number_label(number), core::to_string(previous),
                                    core::to_string(status)),
                        {{"previous_status", core::to_string(previous)}});
}

Answer note_tool(const Arguments& args, const Context& context)
{
  const int number = core::parse_attempt_number(args.name_of("id"));
  auto journal = measuring::open_journal(context.workspace);
  evidence::add_note(journal, number, args.text("text"));
  const auto history = store::load_history(journal.db(), evidence::require_attempt(journal, number));
  return {evidence::with_schema(evidence::to_json(history)),
          fmt::format("{}: note added ({})", core::number_label(number),
                      count_text(history.notes.size(), "note"))};
}

Answer log_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  const auto limit = args.integer("limit").value_or(50);
  if (limit < 0) {
    throw UsageError("limit is a number of attempts, 0 for all of them");
  }
  const auto attempts =
      evidence::log_attempts(journal, {args.text("plan"), args.flag("all_plans"), args.text("status"),
                                       args.text("tag"), args.text("since"), static_cast<int>(limit)});
  return {listed("attempts", evidence::attempts_json(attempts)),
          attempts.empty() ? "no attempts match; record one with the try tool"
                           : count_text(attempts.size(), "attempt") + ", newest first"};
}

// How many matching attempts a search answers with: the limit argument (at least one), else fallback.
int matches_limit(const Arguments& args, long long fallback)
{
  const auto limit = args.integer("limit").value_or(fallback);
  if (limit < 1) {
    throw UsageError("limit is a number of attempts, at least 1");
  }
  return static_cast<int>(limit);
}

Answer search_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  const auto attempts = evidence::search_attempts(journal, args.text("text"), matches_limit(args, 20));
  return {listed("attempts", evidence::attempts_json(attempts)),
          attempts.empty() ? fmt::format("nothing matches '{}'", args.text("text"))
                           : count_text(attempts.size(), "attempt") + " match, newest first"};
}

Answer show_tool(const Arguments& args, const Context& context)
{
  const auto id = args.name_of("id");
  auto journal = measuring::open_journal_for_reading(context.workspace);
  evidence::Reader reader(journal);
  if (const auto run = core::run_reference(id)) {
    auto shown = evidence::show_run_json(reader, *run, args.flag("output"), args.flag("diff"));
    if (!shown) {
      throw Error("there is no run {}; see the runs tool", core::number_label(*run));
    }
    const auto text = fmt::format("run {}: {} r{}, {}", (*shown)["name"].get<std::string>(),
                                  (*shown)["bench"].get<std::string>(), (*shown)["revision"].get<int>(),
                                  (*shown)["status"].get<std::string>());
    return {evidence::with_schema(std::move(*shown)), text};
  }
  if (args.flag("output")) {
    throw UsageError("output goes with a run (r5); {} names an attempt", id);
  }
  const auto attempt = evidence::require_attempt(journal, core::parse_attempt_number(id));
  auto out = evidence::attempt_detail_json(reader, attempt, args.flag("diff"));
  const auto verdict = out["verdict"].is_object() ? out["verdict"].value("text", "") : "";
  return {evidence::with_schema(std::move(out)),
          fmt::format("{} {}: {}{}", core::number_label(attempt.number), attempt.title,
                      core::to_string(attempt.status), verdict.empty() ? "" : "; " + verdict)};
}

Answer why_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal_for_reading(context.workspace);
  const auto histories = evidence::why_matches(journal, args.text("query"), matches_limit(args, 10));
  if (histories.empty()) {
    throw Error("no attempt matches '{}'; try the search tool with other words, or log", args.text("query"));
  }
  evidence::Reader reader(journal);
  std::string text;
  for (const auto& history : histories) {
    const auto& a = history.attempt;
    text += fmt::format("{}{} {}: {}{}", text.empty() ? "" : "\n", core::number_label(a.number), a.title,
                        core::to_string(a.status), a.reason.empty() ? "" : " (" + a.reason + ")");
  }
  return {listed("attempts", evidence::why_json(reader, histories)), text};
}

Answer judge_tool(const Arguments& args, const Context& context)
{
  const int number = core::parse_attempt_number(args.name_of("id"));
  const auto against = evidence::parse_against(args.text("against"));
  auto journal = measuring::open_journal(context.workspace);
  evidence::Reader reader(journal);
  const auto judgement = evidence::judge_attempt_status(reader, number, against);
  const bool apply = args.flag("apply");
  if (apply) {
    evidence::apply_judgement(context.workspace, journal, judgement);
  }
  return {evidence::with_schema(evidence::judgement_json(judgement, apply)),
          fmt::format("{} {}: proposed {} ({}){}", core::number_label(number), judgement.attempt.title,
                      core::to_string(judgement.proposal.status), judgement.proposal.reason,
                      apply ? "; recorded" : "; call judge with apply to record it")};
}

json id_argument()
{
  return either({"string", "integer"}, "the attempt: 12, #12 or @k3f9qx");
}

json any_of(json a, json b)
{
  return {{"type", "object"}, {"anyOf", {std::move(a), std::move(b)}}};
}

} // namespace

void add_attempt_tools(std::vector<Tool>& tools)
{
  const auto attempt_list = objects::listing("attempts", objects::attempt());
  tools.push_back(
      {"try", "Record an attempt",
       "Record a new attempt: an option tried in a plan (ej try). Returns the attempt as ej log --json lists "
       "it.",
       arguments({{"title", string("what is tried, e.g. NCCL_ALGO=Tree")},
                  {"plan", string("the plan's slug (default: the current plan, or the only one)")},
                  {"hypothesis", string("why it should help")},
                  {"command", string("the exact command that tests it")},
                  {"tags", array(string(), "single words")},
                  {"supersedes", array(string(), "attempts this one replaces")},
                  {"retry_of", array(string(), "attempts this one tries again")},
                  {"blocked_by", array(string(), "attempts that must succeed first")}},
                 {"title"}),
       objects::attempt(), false, false, try_tool});
  tools.push_back(
      {"status", "Change an attempt's status",
       "Set an attempt's status with its reason, kept in its history (ej status). A reason is required "
       "for rejected, blocked, inconclusive and superseded.",
       arguments({{"id", id_argument()},
                  {"status", string("proposed running adopted rejected blocked inconclusive superseded")},
                  {"reason", string("why")}},
                 {"id", "status"}),
       [] {
         auto out = objects::attempt();
         out["properties"]["previous_status"] = string();
         out["required"].push_back("previous_status");
         return out;
       }(),
       false, false, status_tool});
  tools.push_back({"note", "Add a note to an attempt",
                   "Add a note to an attempt (ej note); returns its history.",
                   arguments({{"id", id_argument()}, {"text", string("the note")}}, {"id", "text"}),
                   objects::attempt_history(), false, false, note_tool});
  tools.push_back(
      {"log", "List attempts",
       "Attempts newest first (ej log --json): of the current plan unless plan or all_plans is given.",
       arguments({{"plan", string("only this plan")},
                  {"all_plans", boolean("every plan, the current one too")},
                  {"status", string("only this status")},
                  {"tag", string("only attempts with this tag")},
                  {"since", string("only attempts changed since YYYY-MM-DD")},
                  {"limit", integer("at most this many (default 50; 0: all)")}}),
       attempt_list, true, false, log_tool});
  tools.push_back(
      {"search", "Search attempts",
       "Full-text search over titles, hypotheses, commands, tags, reasons and notes (ej search): "
       "attempts holding every word, newest first; end a word with * for the words it starts.",
       arguments({{"text", string("the words")}, {"limit", integer("at most this many (default 20)")}},
                 {"text"}),
       attempt_list, true, false, search_tool});
  tools.push_back(
      {"show", "Show an attempt or a run",
       "An attempt's full timeline, runs and verdict (ej show ID --json), or a run with its samples "
       "and summaries (ej show run N --json) when id names a run (r5).",
       arguments({{"id", either({"string", "integer"}, "an attempt (12, #12) or a run (r5, run:5)")},
                  {"diff", boolean("the stored diff of the code it was made from")},
                  {"output", boolean("a run: the last repeat's captured output and the build log")}},
                 {"id"}),
       any_of(objects::attempt_detail(), objects::run_detail()), true, false, show_tool});
  tools.push_back(
      {"why", "Why is an option where it is",
       "The audit (ej why --json): status, reasons, verdict, links, history and notes of the attempts "
       "a number, tag, title or text names.",
       arguments({{"query", string("an attempt number, a tag, words of a title or any text")},
                  {"limit", integer("at most this many (default 10)")}},
                 {"query"}),
       [] {
         auto entry = objects::attempt_history();
         entry["properties"]["verdict"] = nullable(objects::verdict());
         entry["required"].push_back("verdict");
         return objects::listing("attempts", entry);
       }(),
       true, false, why_tool});
  tools.push_back(
      {"judge", "Judge an attempt",
       "The status an attempt's runs propose against each benchmark's baseline and the plan's targets "
       "(ej judge --json); with apply, recorded with its one-sentence reason.",
       arguments({{"id", id_argument()},
                  {"against", string("then (default: the baseline pinned when the runs were made) or "
                                     "current")},
                  {"apply", boolean("record the proposed status")}},
                 {"id"}),
       objects::judgement(), false, false, judge_tool});
}

} // namespace ej::mcp
