#pragma once

// In-memory journals built event by event for the evidence tests.

#include "core/bench_definition.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

#include <string>
#include <utility>
#include <vector>

namespace ej::test {

// A combination's axis values and its samples: {{"size", "1"}} and {10.1, 10.2, ...}.
struct Combination {
  std::map<std::string, std::string> params;
  std::vector<double> values;
};

class TestJournal {
public:
  TestJournal();
  // A journal in a file (ej_dir/journal.db), for what needs a second connection to it.
  explicit TestJournal(const std::filesystem::path& ej_dir);
  ~TestJournal();
  TestJournal(const TestJournal&) = delete;
  TestJournal& operator=(const TestJournal&) = delete;

  store::Journal& journal() { return m_journal; }
  // The clock of the events that follow (EJ_NOW), e.g. "2026-01-12T10:00:00Z".
  void at(const std::string& when);
  void plan(const std::string& slug, const std::string& target = "");
  // A plan with measures ("serve:tok_s@concurrency=1"), targets ("verify:verify_ms < 15") and a
  // headline combination ("concurrency=1"), as `ej plan new` writes them.
  void plan(const std::string& slug, const std::vector<std::string>& measures,
            const std::vector<std::string>& targets, const std::string& headline = "");
  // A benchmark whose primary metric is `metric` (unit ms, lower is better unless `higher`), with
  // parameter axes.
  void bench(const std::string& name, const std::string& metric = "time_ms", bool higher = false,
             const std::string& unit = "ms", int revision = 1, const std::vector<core::ParamAxis>& axes = {});
  // The metric and unit of the samples of the runs that follow (bench() sets them too).
  void samples_of(const std::string& metric, const std::string& unit);
  // Every repeat of the runs that follow also records `metric` = `value` (in the same unit): a
  // second metric that is the same on both sides.
  void also_record(const std::string& metric, double value);
  void attempt(int number, const std::string& plan);
  // A run measured by ej, one repeat per sample, combination after combination.
  void run(int number, int attempt, const std::vector<Combination>& combinations,
           const std::string& env_blob = "", const std::string& bench = "b", int revision = 1,
           const std::string& status = "finished");
  // One figure measured elsewhere (ej record).
  void imported(int number, int attempt, double value, const std::string& bench = "b");
  void baseline(const std::string& plan, int run, const std::string& bench = "b",
                const std::string& reason = "");
  // ej run withdraw RUN --reason REASON.
  void withdraw(int run, const std::string& reason);
  // Stores an environment fingerprint; returns its blob hash.
  std::string environment(const nlohmann::json& fingerprint);

private:
  store::Journal m_journal;
  std::string m_metric = "time_ms";
  std::string m_unit = "ms";
  std::optional<std::pair<std::string, double>> m_also;
};

} // namespace ej::test
