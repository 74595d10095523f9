#include "mcp/objects.h"

namespace ej::mcp::objects {

using namespace schema;

namespace {

Json with_schema_field(Json object)
{
  object["properties"]["schema"] = integer("the layout's version (docs/json.md)");
  object["required"].push_back("schema");
  return object;
}

Properties attempt_properties()
{
  return {{"number", nullable(integer("the attempt number; null while provisional"))},
          {"name", string("#12, or @k3f9qx while provisional")},
          {"id", string()},
          {"plan", string()},
          {"title", string()},
          {"hypothesis", string()},
          {"command", string()},
          {"status", string("proposed running adopted rejected blocked inconclusive superseded")},
          {"resolved_by", array(integer())},
          {"reason", string()},
          {"tags", array(string())},
          {"created", string()},
          {"updated", string()},
          {"git", git()}};
}

Properties history_properties()
{
  auto properties = attempt_properties();
  properties.emplace_back("status_history", array(record({{"created", string()},
                                                          {"from", string()},
                                                          {"to", string()},
                                                          {"reason", string()},
                                                          {"git", git()}})));
  properties.emplace_back("notes", array(record({{"created", string()}, {"text", string()}})));
  properties.emplace_back("links",
                          array(record({{"kind", string()}, {"from", integer()}, {"to", integer()}})));
  return properties;
}

Properties run_properties()
{
  return {{"number", nullable(integer())},
          {"name", string()},
          {"bench", string()},
          {"revision", integer()},
          {"attempt", nullable(integer())},
          {"status", string("started finished failed timeout extract-error interrupted build-failed imported "
                            "check-failed invalid")},
          {"reason", string()},
          {"label", string()},
          {"params", object()},
          {"started", string()},
          {"ended", nullable(string())},
          {"git", git()},
          {"env", string()},
          {"imported", boolean()},
          {"source", string()},
          {"withdrawn", nullable(object())},
          {"series", array(object())},
          {"repeats", array(object())},
          {"outputs", object()},
          {"env_readings", object()}};
}

// Whether a verdict's figures can be believed (docs/json.md, Verdicts): the same fields in a
// sequential verdict and an interleaved one.
void add_validity(Properties& properties)
{
  Json validity = string("valid; suspect (flags say why: it stands, but proposes no adoption); invalid (its "
                         "outcomes are all inconclusive)");
  validity["enum"] = {"valid", "suspect", "invalid"};
  properties.emplace_back("validity", validity);
  properties.emplace_back("invalid_reason", nullable(string("why it is invalid: the outputs differ")));
  properties.emplace_back("flags", array(string(), "why its figures are doubted"));
}

// How the two sides of a comparison or verdict were measured (docs/json.md, Verdicts).
Json design()
{
  Json kind = string("sequential: apart in time; interleaved: the two runs of one ej run --against session");
  kind["enum"] = {"sequential", "interleaved"};
  return record(
      {{"kind", kind},
       {"drift_controlled", boolean()},
       {"baseline_earlier_s", nullable(number("sequential: how much earlier the reference started"))},
       {"rounds", nullable(integer("interleaved: the session's rounds"))},
       {"text", string()}});
}

} // namespace

Json git()
{
  return record({{"commit", string()}, {"branch", string()}, {"dirty", boolean()}, {"diff_blob", string()}});
}

Json next()
{
  Json kind = string("what to do: none (decisive), measure_more, measure_against, calibrate, pin_baseline, "
                     "choose_headline, fix_figures (invalid or suspect figures), add_check (a decisive gain "
                     "that nothing checked)");
  kind["enum"] = {"none",         "measure_more",    "measure_against", "calibrate",
                  "pin_baseline", "choose_headline", "fix_figures",     "add_check"};
  return array(record({{"kind", kind},
                       {"command", nullable(string("the command to run; null for none"))},
                       {"why", string()},
                       {"rounds", nullable(integer("rounds of one repeat a side that would decide"))},
                       {"noise", nullable(number("per-round noise the rounds are sized at"))},
                       {"effect", nullable(number("the change the rounds resolve"))},
                       {"scale", nullable(string("percent or unit: of noise and effect"))},
                       {"source", nullable(string("calibration or observed: where the noise comes from"))},
                       {"run", nullable(integer("pin_baseline: the run to pin"))}}),
               "first things first (docs/json.md, What to do next)");
}

Json verdict()
{
  Properties properties{{"text", string()},
                        {"bench", string()},
                        {"metric", string()},
                        {"outcome", string("improved regressed mixed no change inconclusive")},
                        {"headline_outcome", string("the outcome that decides")}};
  add_validity(properties);
  properties.emplace_back("next", next());
  Json out = record(properties);
  out["description"] = "a verdict (docs/json.md, Verdicts)";
  return out;
}

Json attempt()
{
  return with_schema_field(record(attempt_properties()));
}

Json attempt_history()
{
  return with_schema_field(record(history_properties()));
}

Json attempt_detail()
{
  auto properties = history_properties();
  properties.emplace_back("runs", array(nullable(integer())));
  properties.emplace_back("verdict", nullable(verdict()));
  properties.emplace_back("unjudged_because", string("when verdict is null: why there is none"));
  properties.emplace_back("next", next());
  properties.emplace_back("diff", string());
  properties.emplace_back("run_code", array(object()));
  std::vector<std::string> required;
  for (const auto& [name, schema] : history_properties()) {
    required.push_back(name);
  }
  required.push_back("runs");
  required.push_back("verdict");
  return with_schema_field(record(properties, required));
}

Json run()
{
  auto properties = run_properties();
  auto judged = verdict();
  judged["description"] = "present when the run is judged against its plan's baseline";
  properties.emplace_back("verdict", judged);
  std::vector<std::string> required;
  for (const auto& [name, schema] : run_properties()) {
    required.push_back(name);
  }
  return with_schema_field(record(properties, required));
}

Json run_detail()
{
  auto out = run();
  out["properties"]["on"] = nullable(object("where it ran when not here"));
  auto session = interleaved();
  session["description"] = "the interleaved session it was measured in";
  out["properties"]["comparison"] = nullable(session);
  out["properties"]["throttled"] = object();
  out["properties"]["gpu_warnings"] = array(string());
  out["properties"]["stdout"] = string();
  out["properties"]["stderr"] = string();
  out["properties"]["build_log"] = string();
  out["properties"]["diff"] = string();
  for (const char* name : {"on", "comparison", "throttled", "gpu_warnings"}) {
    out["required"].push_back(name);
  }
  return out;
}

Json bench()
{
  return with_schema_field(record({{"name", string()},
                                   {"revision", integer()},
                                   {"ci", boolean()},
                                   {"definition", object("the definition (docs/json.md, Benchmarks)")}}));
}

Json bench_show()
{
  return with_schema_field(
      record({{"name", string()},
              {"revisions", array(record({{"name", string()},
                                          {"revision", integer()},
                                          {"created", string()},
                                          {"ci", boolean()},
                                          {"definition", object()}}))},
              {"calibration", nullable(object("the latest calibration (ej calibrate)"))}}));
}

Json comparison()
{
  // Two designs: runs of different times (reference and candidate labels, every series), or two
  // runs measured together by ej run --against (design "interleaved", judged on their pairs).
  Properties properties{{"reference", string()},
                        {"candidate", string()},
                        {"bench", string()},
                        {"series", array(object())},
                        {"outcome", string("improved regressed mixed no change inconclusive")},
                        {"crossover", string()},
                        {"environment_changes", array(string())},
                        {"warnings", array(string())},
                        {"throttled", object()}};
  add_validity(properties);
  properties.emplace_back("design", design());
  properties.emplace_back("next", next());
  Json sequential = record(properties);
  sequential["properties"]["benchmarks"] = array(object());
  sequential["properties"]["not_compared"] = array(string());
  return with_schema_field(Json{{"type", "object"},
                                {"properties", Json::object()},
                                {"required", Json::array()},
                                {"anyOf", {sequential, interleaved()}}});
}

Json interleaved()
{
  Properties properties{{"design", string("interleaved")},
                        {"candidate", integer()},
                        {"reference", integer()},
                        {"rounds", integer()},
                        {"outcome", string("improved regressed equivalent inconclusive mixed")}};
  add_validity(properties);
  properties.emplace_back("series", array(object()));
  properties.emplace_back("next", next());
  return record(properties);
}

Json judgement()
{
  return with_schema_field(
      record({{"attempt", nullable(integer())},
              {"title", string()},
              {"status", string("the current status")},
              {"proposed_status", string("what the evidence proposes")},
              {"reason", string("the sentence --apply records")},
              {"applied", boolean()},
              {"verdict", verdict()},
              {"verdicts", array(verdict())},
              {"targets", array(object())},
              {"not_judged", array(record({{"bench", string()}, {"why", string()}, {"next", next()}}))}}));
}

Json rendered()
{
  return with_schema_field(record({{"plan", string()},
                                   {"doc", string("relative to the work tree root")},
                                   {"charts", array(string())},
                                   {"check", boolean()},
                                   {"up_to_date", boolean()},
                                   {"written", boolean()},
                                   {"warnings", array(string())}}));
}

Json waited()
{
  return with_schema_field(
      record({{"name", string("#5, or @k3f9qx before it is recorded")},
              {"number", nullable(integer())},
              {"state", string("preparing running finished ended failed")},
              {"status", nullable(string())},
              {"reason", string()},
              {"progress", nullable(record({{"phase", nullable(string("recorded building measuring"))},
                                            {"combination", nullable(integer())},
                                            {"combinations", nullable(integer())},
                                            {"repeats_done", integer("warmups included")},
                                            {"repeats_planned", nullable(integer("warmups included"))},
                                            {"elapsed_s", number()},
                                            {"eta_s", nullable(number("the time left at the pace so far"))},
                                            {"series", array(record({{"metric", string()},
                                                                     {"params", string()},
                                                                     {"key", string()},
                                                                     {"unit", string()},
                                                                     {"n", integer()},
                                                                     {"median", number()},
                                                                     {"low", number()},
                                                                     {"high", number()},
                                                                     {"coverage", number()}}))}}))},
              {"summary", string()},
              {"verdict", nullable(verdict())},
              {"log", nullable(string())}}));
}

Json listing(const char* name, Json element)
{
  return with_schema_field(record({{name, array(std::move(element))}}));
}

} // namespace ej::mcp::objects
