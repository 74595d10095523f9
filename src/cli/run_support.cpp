#include "cli/run_support.h"

#include "cli/output.h"
#include "core/numbering.h"
#include "evidence/reader.h"
#include "evidence/run_summary.h"
#include "evidence/series.h"
#include "measure/statistics.h"
#include "run/owner.h"
#include "run/run_cgroup.h"
#include "store/run_queries.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <map>
#include <set>
#include <unistd.h>
#include <utility>

namespace ej::cli {

run::ProbeSpec probe_from_json(const std::string& name, const nlohmann::json& definition,
                               const std::filesystem::path& work_tree)
{
  run::ProbeSpec probe;
  probe.name = name;
  probe.argv = definition.value("argv", std::vector<std::string>{});
  const auto shell = definition.value("shell", "");
  if (!shell.empty()) {
    probe.shell = shell;
  }
  probe.cwd = work_tree;
  if (const auto timeout = definition.find("timeout_s");
      timeout != definition.end() && timeout->is_number()) {
    probe.timeout_s = timeout->get<double>(); // a damaged (null) timeout keeps the default
  }
  return probe;
}

nlohmann::json chosen_params_json(const std::vector<core::ParamValues>& combinations)
{
  std::map<std::string, std::vector<std::string>> axes;
  for (const auto& values : combinations) {
    for (const auto& [name, value] : values) {
      auto& list = axes[name];
      if (std::find(list.begin(), list.end(), value) == list.end()) {
        list.push_back(value);
      }
    }
  }
  return axes;
}

std::string this_host()
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

std::string this_boot_id()
{
  return run::boot_id();
}

bool run_process_gone(store::Journal& journal, const core::RunRecord& run)
{
  if (run.host != this_host()) {
    return false; // another machine's run: it cannot be checked from here
  }
  std::optional<std::uint64_t> start_ticks;
  const auto started = store::run_started_payload(journal.db(), run.id);
  if (started && started->contains("pid_start_ticks") && (*started)["pid_start_ticks"].is_number_unsigned()) {
    start_ticks = (*started)["pid_start_ticks"].get<std::uint64_t>();
  }
  if (start_ticks == 0u) {
    start_ticks.reset(); // not known when the run started
  }
  return run::owner_state(run.pid, start_ticks, run.boot_id) == run::OwnerState::Gone;
}

void recover_stale_runs(store::Journal& journal)
{
  if (journal.read_only_reason()) {
    return;
  }
  const auto started = store::runs_with_status(journal.db(), "started");
  bool abandoned = false;
  for (const auto& run : started) {
    if (!run_process_gone(journal, run)) {
      continue;
    }
    abandoned = true;
    journal.write([&](store::Writer& writer) {
      const auto current = store::find_run(journal.db(), run.number);
      if (current && current->status == "started") {
        writer.append(store::events::RunFinished{
            store::events::Ref::to(run.id), "interrupted",
            fmt::format("the ej that ran it (pid {}) stopped without finishing it; the samples measured are kept",
                        run.pid)});
      }
    });
  }
  // What such a run left running in its cgroup (its ej and guardian both killed): stopped now.
  if (abandoned) {
    run::stop_abandoned_cgroups();
  }
}

void print_run_summary(store::Journal& journal, int number)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    return;
  }
  const auto repeats = store::run_repeats(journal.db(), number);
  // A repeat cut short by the interruption measured nothing: it is said apart, so that the count
  // agrees with the n of the summary below.
  std::size_t measured = 0;
  std::size_t cut_short = 0;
  for (const auto& repeat : repeats) {
    if (!repeat.warmup) {
      (repeat.ending == "interrupted" ? cut_short : measured) += 1;
    }
  }
  fmt::print("run {} {} {}: {} repeat(s){}{}\n", core::number_label(run->number), run->bench, run->status,
             measured, cut_short > 0 ? fmt::format(" and {} cut short", cut_short) : "",
             run->reason.empty() ? "" : " — " + util::first_line(run->reason, 200));
  evidence::Reader reader(journal);
  // Row by row into series: a run of millions of samples costs 8 bytes a value here.
  evidence::SeriesBuilder series;
  store::visit_run_samples(journal.db(), number, [&series](const store::SampleView& sample) {
    series.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  fmt::print("{}", evidence::run_summary_text(series.take(), reader.rules(run->bench, run->revision)));
}

} // namespace ej::cli
