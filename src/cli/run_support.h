#pragma once

#include "core/bench_definition.h"
#include "core/run_records.h"
#include "measure/metric_spec.h"
#include "run/environment.h"
#include "store/journal.h"

#include <filesystem>
#include <string>
#include <vector>

// Pieces shared by the run, runs, show run and env commands.
namespace ej::cli {

std::vector<measure::MetricSpec> metric_specs(const core::BenchDefinition& definition);
run::ProbeSpec probe_from_json(const std::string& name, const nlohmann::json& definition,
                               const std::filesystem::path& work_tree);
// {axis: [values...]} of the combinations a run covers.
nlohmann::json chosen_params_json(const std::vector<core::ParamValues>& combinations);

std::string this_host();
// /proc/sys/kernel/random/boot_id: tells a pid from a previous boot.
std::string this_boot_id();

// A run left `started` by an ej that is gone (killed, power loss) is marked interrupted.
void recover_stale_runs(store::Journal& journal);

// One series of a run: a metric, for one parameter combination and key.
struct SeriesSummary {
  std::string metric;
  std::string params; // "variant=fused" or ""
  std::string key;    // nvbench state, gbench row, hyperfine command, or ""
  std::string unit;
  std::vector<double> values;
  std::size_t skipped = 0;
  std::size_t aggregates = 0;
};
std::vector<SeriesSummary> run_series(const std::vector<core::SampleRecord>& samples);
std::string params_label(const std::string& params_json);

void print_run_summary(store::Journal& journal, int run);

} // namespace ej::cli
