#include "evidence/live_progress.h"

#include "core/bench_definition.h"
#include "core/numbering.h"
#include "evidence/ended_run_summary.h"
#include "evidence/records_json.h"
#include "evidence/series.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"
#include "evidence/wording.h"
#include "measure/median_interval.h"
#include "measuring/progress_note.h"
#include "store/run_queries.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

constexpr double k_interval_confidence = 0.95;

// The metric the run is judged on: its benchmark revision's primary, else wall time.
std::string primary_metric(store::Journal& journal, const core::RunRecord& run)
{
  const auto bench = store::find_bench_revision(journal.db(), run.bench, run.revision);
  const auto primary = bench ? core::readable_bench_definition(bench->definition).primary : std::string();
  return primary.empty() ? "wall_s" : primary;
}

// The primary metric's series so far, each with its median and the interval around it.
nlohmann::json series_so_far(store::Journal& journal, const core::RunRecord& run)
{
  const auto metric = primary_metric(journal, run);
  auto out = nlohmann::json::array();
  for (auto& s : run_series(store::run_samples(journal.db(), run.number))) {
    if (s.metric != metric || s.values.empty()) {
      continue;
    }
    std::sort(s.values.begin(), s.values.end());
    const auto n = s.values.size();
    const double median = n % 2 == 1 ? s.values[n / 2] : (s.values[n / 2 - 1] + s.values[n / 2]) / 2;
    const auto interval = measure::median_interval(s.values, k_interval_confidence);
    out.push_back({{"metric", s.metric},
                   {"params", s.params},
                   {"key", s.key},
                   {"unit", s.unit},
                   {"n", n},
                   {"median", median},
                   {"low", interval.low},
                   {"high", interval.high},
                   {"coverage", interval.coverage}});
  }
  return out;
}

nlohmann::json progress_json(Reader& reader, const measuring::Workspace& workspace,
                             const core::RunRecord& run)
{
  auto& journal = reader.journal();
  const auto note = measuring::read_progress_note(workspace, run.id);
  const auto repeats = store::run_repeats(journal.db(), run.number);
  const double elapsed =
      static_cast<double>(std::max<std::int64_t>(0, util::now_ms() - run.started_ms)) / 1000;
  nlohmann::json out = {
      {"phase", note ? nlohmann::json(note->phase) : nlohmann::json()},
      {"combination", note ? nlohmann::json(note->combination) : nlohmann::json()},
      {"combinations", note ? nlohmann::json(note->combinations) : nlohmann::json()},
      {"repeats_done", note ? std::max<std::size_t>(note->done, repeats.size()) : repeats.size()},
      {"repeats_planned", note && note->planned > 0 ? nlohmann::json(note->planned) : nlohmann::json()},
      {"elapsed_s", elapsed},
      {"eta_s", nullptr},
      {"series", series_so_far(journal, run)}};
  // The time left at the pace so far: what the repeats ended took on average, for those still to
  // come, less what has passed since the note was written.
  if (note && note->planned > 0 && note->done > 0 && note->measuring_s > 0) {
    const double per_repeat = note->measuring_s / note->done;
    const double since_note =
        static_cast<double>(std::max<std::int64_t>(0, util::now_ms() - note->written_ms)) / 1000;
    out["eta_s"] = std::max(0.0, per_repeat * (note->planned - note->done) - since_note);
  }
  return out;
}

std::string seconds_text(double seconds)
{
  if (seconds < 60) {
    return fmt::format("{:.1f} s", seconds);
  }
  const auto whole = static_cast<long long>(seconds + 0.5);
  if (whole < 3600) {
    return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  }
  return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
}

} // namespace

nlohmann::json waited_json(Reader& reader, const measuring::Workspace& workspace,
                           const measuring::WaitedRun& waited)
{
  nlohmann::json out = {{"name", core::number_label(waited.run ? waited.run->number : waited.number)},
                        {"number", waited.run ? json_number(waited.run->number) : nlohmann::json()},
                        {"state", nullptr},
                        {"status", nullptr},
                        {"reason", ""},
                        {"progress", nullptr},
                        {"summary", ""},
                        {"verdict", nullptr},
                        {"log", nullptr}};
  if (!waited.run) {
    const auto& pending = *waited.pending;
    out["state"] = pending.alive ? "preparing" : "failed";
    out["reason"] = pending.alive ? "" : pending.error;
    out["log"] = pending.log.string();
    return out;
  }
  const auto& run = *waited.run;
  out["status"] = core::to_string(run.status);
  out["reason"] = run.reason;
  if (run.status == core::RunStatus::Started) {
    out["state"] = "running";
    out["progress"] = progress_json(reader, workspace, run);
  } else {
    out["state"] = run.status == core::RunStatus::Finished ? "finished" : "ended";
    out["summary"] = ended_run_summary(reader.journal(), run.number);
    if (const auto verdict = judge_run(reader, run).verdict) {
      out["verdict"] = verdict_json(*verdict);
    }
  }
  if (const auto log = measuring::run_log_path(workspace, run); std::filesystem::exists(log)) {
    out["log"] = log.string();
  }
  return out;
}

std::vector<std::string> progress_lines(const nlohmann::json& waited)
{
  std::vector<std::string> lines;
  const auto& progress = waited["progress"];
  if (waited["state"] == "preparing") {
    lines.push_back(fmt::format("run {} is still being prepared (code state, environment)",
                                waited["name"].get<std::string>()));
    return lines;
  }
  if (!progress.is_object()) {
    return lines;
  }
  std::string doing;
  if (progress["phase"].is_string()) {
    doing = progress["phase"].get<std::string>();
    if (progress["combinations"].is_number() && progress["combinations"].get<int>() > 1) {
      doing += fmt::format(", combination {} of {}", progress["combination"].get<int>(),
                           progress["combinations"].get<int>());
    }
    doing = " (" + doing + ")";
  }
  std::string repeats = fmt::format("{} repeat{}", progress["repeats_done"].get<long long>(),
                                    progress["repeats_done"].get<long long>() == 1 ? "" : "s");
  if (progress["repeats_planned"].is_number()) {
    repeats = fmt::format("{} of {} repeats", progress["repeats_done"].get<long long>(),
                          progress["repeats_planned"].get<long long>());
  }
  lines.push_back(fmt::format("run {} is still running{}: {} in {}{}", waited["name"].get<std::string>(),
                              doing, repeats, seconds_text(progress["elapsed_s"].get<double>()),
                              progress["eta_s"].is_number()
                                  ? ", about " + seconds_text(progress["eta_s"].get<double>()) + " left"
                                  : ""));
  for (const auto& s : progress["series"]) {
    const auto unit = s["unit"].get<std::string>();
    std::string where = s["params"].get<std::string>();
    if (!s["key"].get<std::string>().empty()) {
      where += (where.empty() ? "" : " ") + s["key"].get<std::string>();
    }
    lines.push_back(
        fmt::format("  {}{}: median {}, interval [{}, {}] ({:.0f}%), n = {}", s["metric"].get<std::string>(),
                    where.empty() ? "" : " [" + where + "]", value_text(s["median"].get<double>(), unit),
                    value_text(s["low"].get<double>(), unit), value_text(s["high"].get<double>(), unit),
                    s["coverage"].get<double>() * 100, s["n"].get<long long>()));
  }
  return lines;
}

} // namespace ej::evidence
