#pragma once

#include <CLI/CLI.hpp>

// One register function per command file in src/cli/.
namespace ej::cli {

// CLI11 reads "nan", "inf" and "1e999" as numbers; every numeric option of ej takes finite ones
// (a NaN would be stored as null and make the definition unreadable).
const CLI::Validator& finite_number();

void register_init(CLI::App& app);           // init.cpp
void register_plan(CLI::App& app);           // plan.cpp
void register_attempt_commands(CLI::App& app); // attempt.cpp: try, status, note, attempt edit
void register_read_commands(CLI::App& app);  // log.cpp: log, show, search
void register_why(CLI::App& app);            // why.cpp
void register_maintenance(CLI::App& app);    // fsck.cpp: fsck, reindex, purge
void register_bench(CLI::App& app);          // bench.cpp: bench add, edit, list, show
void register_bench_test(CLI::App& bench);   // bench_test.cpp: bench test
void register_run(CLI::App& app);            // run_command.cpp: run
void register_run_withdraw(CLI::App& run);   // withdraw.cpp: run withdraw
void register_calibrate(CLI::App& app);      // calibrate.cpp: calibrate
void register_host(CLI::App& app);           // host.cpp: host add, list, check
void register_runs(CLI::App& app);           // runs.cpp: runs (and show run, via log.cpp)
void register_live_runs(CLI::App& app);      // live_runs.cpp: wait, cancel
void register_env(CLI::App& app);            // env.cpp: env show, diff, probe
void register_compare(CLI::App& app);        // compare.cpp: compare, judge
void register_record(CLI::App& app);         // record.cpp: record
void register_render(CLI::App& app, CLI::App& plan); // render_command.cpp: plan render, report
void register_checkout(CLI::App& app);               // checkout.cpp: checkout
void register_rerun(CLI::App& app);                  // rerun.cpp: rerun
void register_sharing(CLI::App& app);                // sync.cpp: sync, export, import
void register_history(CLI::App& app);                // history.cpp: history, regressions, ack
void register_ci(CLI::App& app);                     // ci.cpp: ci
void register_bisect(CLI::App& app);                 // bisect.cpp: bisect
void register_mcp(CLI::App& app);                    // mcp_command.cpp: mcp

} // namespace ej::cli
