#pragma once

#include "core/bench_definition.h"
#include "core/run_records.h"
#include "evidence/metric_rules.h"
#include "evidence/series.h"
#include "measure/metric_spec.h"
#include "run/environment.h"
#include "store/journal.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// Pieces shared by the run, runs, show run and env commands.
namespace ej::cli {

using evidence::metric_specs;
using evidence::params_label;
using evidence::run_series;
using evidence::SeriesBuilder;
using evidence::SeriesSummary;

run::ProbeSpec probe_from_json(const std::string& name, const nlohmann::json& definition,
                               const std::filesystem::path& work_tree);
// {axis: [values...]} of the combinations a run covers.
nlohmann::json chosen_params_json(const std::vector<core::ParamValues>& combinations);

std::string this_host();
// /proc/sys/kernel/random/boot_id: tells a pid from a previous boot.
std::string this_boot_id();

// Whether the ej that runs a `started` run of this machine is gone (false for another machine's).
bool run_process_gone(store::Journal& journal, const core::RunRecord& run);
// A run left `started` by an ej that is gone (killed, power loss) is marked interrupted.
void recover_stale_runs(store::Journal& journal);

void print_run_summary(store::Journal& journal, int run);

} // namespace ej::cli
