#include "evidence/run_json.h"

#include "core/numbering.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/records_json.h"
#include "evidence/run_set.h"
#include "evidence/series.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"
#include "measure/statistics.h"
#include "run/environment.h"
#include "store/events.h"
#include "store/interleaved_queries.h"
#include "store/run_queries.h"
#include "util/time.h"

namespace ej::evidence {

std::map<int, std::vector<std::string>> throttled_by_index(const measure::ThrottleReport& report)
{
  std::map<int, std::vector<std::string>> out;
  for (const auto& repeat : report.throttled) {
    out[repeat.index] = repeat.why;
  }
  return out;
}

std::vector<std::string> gpu_warnings_of(Reader& reader, const core::RunRecord& run)
{
  if (run.env_blob.empty()) {
    return {};
  }
  const auto* fingerprint = reader.environment(run.env_blob);
  return fingerprint != nullptr ? run::gpu_warnings(*fingerprint) : std::vector<std::string>{};
}

namespace {

nlohmann::json series_json(const std::vector<SeriesSummary>& series)
{
  auto out = nlohmann::json::array();
  for (const auto& s : series) {
    nlohmann::json entry = {{"metric", s.metric},
                            {"params", s.params},
                            {"key", s.key},
                            {"unit", s.unit},
                            {"samples", s.values},
                            {"skipped", s.skipped},
                            {"aggregates", s.aggregates}};
    if (!s.values.empty()) {
      const auto summary = measure::summarize(s.values);
      entry["summary"] = {{"n", summary.n},
                          {"median", summary.median},
                          {"mean", summary.mean},
                          {"stddev", summary.stddev},
                          {"min", summary.min},
                          {"max", summary.max},
                          {"q1", summary.q1},
                          {"q3", summary.q3},
                          {"cv", summary.cv ? nlohmann::json(*summary.cv) : nlohmann::json()},
                          {"outliers", summary.outlier_indices},
                          {"slow_first", summary.slow_first}};
    }
    out.push_back(std::move(entry));
  }
  return out;
}

} // namespace

nlohmann::json run_json(Reader& reader, const core::RunRecord& run, bool with_samples)
{
  auto& journal = reader.journal();
  nlohmann::json out = {
      {"number", json_number(run.number)},
      {"name", core::number_label(run.number)},
      {"bench", run.bench},
      {"revision", run.revision},
      {"attempt", run.attempt ? nlohmann::json(*run.attempt) : nlohmann::json()},
      {"status", core::to_string(run.status)},
      {"reason", run.reason},
      {"label", run.label},
      {"params", run.params},
      {"started", util::format_utc(run.started_ms)},
      {"ended", run.ended_ms > 0 ? nlohmann::json(util::format_utc(run.ended_ms)) : nlohmann::json()},
      {"git", core::to_json(run.git)},
      {"env", run.env_blob},
      {"imported", run.status == core::RunStatus::Imported},
      {"source", run.source},
      {"withdrawn", run.withdrawn() ? nlohmann::json{{"time", util::format_utc(run.withdrawn_ms)},
                                                     {"reason", run.withdrawn_reason}}
                                    : nlohmann::json()},
  };
  if (const auto verdict = judge_run(reader, run).verdict) {
    out["verdict"] = verdict_json(*verdict);
  }
  if (with_samples) {
    out["series"] = series_json(run_series(store::run_samples(journal.db(), run.number)));
    auto repeats = nlohmann::json::array();
    const auto records = store::run_repeats(journal.db(), run.number);
    for (const auto& r : records) {
      repeats.push_back({{"index", r.index},
                         {"params", params_label(r.params)},
                         {"warmup", r.warmup},
                         {"ending", core::to_string(r.ending)},
                         {"exit_code", r.exit_code},
                         {"signal", r.signal},
                         {"wall_s", r.wall_s},
                         {"user_s", r.user_s},
                         {"sys_s", r.sys_s},
                         {"max_rss_kb", r.max_rss_kb}});
    }
    out["repeats"] = repeats;
    add_device_json(reader, run, records, out);
    out["outputs"] = run.outputs;
    out["env_readings"] = run.env_readings;
  }
  return out;
}

void add_device_json(Reader& reader, const core::RunRecord& run,
                     const std::vector<core::RepeatRecord>& repeats, nlohmann::json& out)
{
  const auto& report = reader.throttled(run);
  const auto throttled = throttled_by_index(report);
  auto& list = out["repeats"];
  for (std::size_t i = 0; i < repeats.size() && i < list.size(); ++i) {
    list[i]["device"] = store::events::device_json(repeats[i].device);
    const auto found = throttled.find(repeats[i].index);
    list[i]["throttled"] = found != throttled.end();
    list[i]["throttled_why"] = found != throttled.end() ? found->second : std::vector<std::string>{};
  }
  out["throttled"] = {
      {"repeats", report.throttled.size()}, {"of", report.repeats_with_state}, {"summary", report.summary()}};
  out["gpu_warnings"] = gpu_warnings_of(reader, run);
}

std::optional<nlohmann::json> show_run_json(Reader& reader, int number, bool output, bool diff)
{
  auto& journal = reader.journal();
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    return std::nullopt;
  }
  const auto blob_text = [&](const char* key) {
    const auto hash = run->outputs.value(key, "");
    return hash.empty() ? std::string() : journal.blob(hash).value_or("");
  };
  auto out = run_json(reader, *run, true);
  out["on"] = run_location(journal, *run);
  // The interleaved session it was measured in (ej run --against, ej calibrate), judged on its pairs.
  const auto comparison = store::interleaved_comparison_of(journal.db(), number);
  out["comparison"] = nullptr;
  if (comparison) {
    out["comparison"] = to_json(judge_interleaved(journal.db(), *comparison));
    out["comparison"]["purpose"] = comparison->design.purpose;
  }
  if (output) {
    out["stdout"] = blob_text("stdout_blob");
    out["stderr"] = blob_text("stderr_blob");
    const auto build = run->outputs.find("build");
    const auto hash = build != run->outputs.end() && build->is_object() ? build->value("log_blob", "") : "";
    out["build_log"] = hash.empty() ? std::string() : journal.blob(hash).value_or("");
    // Only a run whose --check failed has it (docs/benchmarks.md, "Checks").
    if (run->outputs.contains("check_blob")) {
      out["check_output"] = blob_text("check_blob");
    }
  }
  if (diff) {
    out["diff"] = run->git.dirty ? journal.blob(run->git.diff_blob).value_or("") : "";
  }
  return out;
}

nlohmann::json run_location(store::Journal& journal, const core::RunRecord& run)
{
  const auto started = store::run_started_payload(journal.db(), run.id);
  if (!started) {
    return nullptr;
  }
  store::Event event;
  event.type = store::events::RunStarted::type;
  event.payload = *started;
  return store::events::RunStarted::read(event).on;
}

} // namespace ej::evidence
