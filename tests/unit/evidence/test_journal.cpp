#include "unit/evidence/test_journal.h"

#include "core/bench_definition.h"
#include "measure/metric_spec.h"

#include <cstdlib>

namespace ej::test {

using nlohmann::json;

TestJournal::TestJournal() : m_journal(store::Journal::open_memory())
{
  at("2026-01-01T00:00:00Z");
}

TestJournal::TestJournal(const std::filesystem::path& ej_dir) : m_journal(store::Journal::create(ej_dir))
{
  at("2026-01-01T00:00:00Z");
}

TestJournal::~TestJournal()
{
  ::unsetenv("EJ_NOW");
}

void TestJournal::at(const std::string& when)
{
  ::setenv("EJ_NOW", when.c_str(), 1);
}

void TestJournal::plan(const std::string& slug, const std::string& target)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append(
        "plan.created",
        {{"slug", slug}, {"title", "Plan " + slug}, {"goal", ""}, {"target", target}, {"doc", slug + ".md"}});
  });
}

void TestJournal::plan(const std::string& slug, const std::vector<std::string>& measures,
                       const std::vector<std::string>& targets, const std::string& headline)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("plan.created", {{"slug", slug},
                                   {"title", "Plan " + slug},
                                   {"goal", ""},
                                   {"target", ""},
                                   {"doc", slug + ".md"},
                                   {"measures", measures},
                                   {"targets", targets},
                                   {"headline", headline}});
  });
}

void TestJournal::samples_of(const std::string& metric, const std::string& unit)
{
  m_metric = metric;
  m_unit = unit;
}

void TestJournal::also_record(const std::string& metric, double value)
{
  m_also = {metric, value};
}

void TestJournal::bench(const std::string& name, const std::string& metric, bool higher,
                        const std::string& unit, int revision, const std::vector<core::ParamAxis>& axes)
{
  m_metric = metric;
  m_unit = unit;
  core::BenchDefinition definition;
  definition.argv = {"true"};
  measure::MetricSpec spec = measure::parse_metric_spec(metric + "=kv:" + metric);
  spec.unit = unit;
  spec.better = higher ? measure::Direction::HigherIsBetter : measure::Direction::LowerIsBetter;
  definition.metrics = {spec};
  definition.primary = metric;
  definition.params = axes;
  m_journal.write([&](store::Writer& writer) {
    writer.append(revision == 1 ? "bench.added" : "bench.edited",
                  {{"name", name}, {"revision", revision}, {"definition", core::to_json(definition)}});
  });
}

void TestJournal::attempt(int number, const std::string& plan)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("attempt.created", {{"attempt", number},
                                      {"plan", plan},
                                      {"title", "attempt " + std::to_string(number)},
                                      {"hypothesis", ""},
                                      {"command", ""},
                                      {"tags", json::array()},
                                      {"links", json::array()},
                                      {"git", json::object()}});
  });
}

void TestJournal::run(int number, int attempt, const std::vector<Combination>& combinations,
                      const std::string& env_blob, const std::string& bench, int revision,
                      const std::string& status)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("run.started", {{"run", number},
                                  {"bench", bench},
                                  {"revision", revision},
                                  {"attempt", attempt},
                                  {"label", ""},
                                  {"params", json::object()},
                                  {"git", json::object()},
                                  {"env_blob", env_blob},
                                  {"host", "test"},
                                  {"pid", 1},
                                  {"boot_id", ""}});
    json repeats = json::array();
    int index = 0;
    for (const auto& combination : combinations) {
      for (const double value : combination.values) {
        auto samples = json::array({{{"metric", m_metric}, {"key", ""}, {"value", value}, {"unit", m_unit}}});
        if (m_also) {
          samples.push_back(
              {{"metric", m_also->first}, {"key", ""}, {"value", m_also->second}, {"unit", m_unit}});
        }
        repeats.push_back({{"idx", index++},
                           {"params", combination.params},
                           {"warmup", false},
                           {"ending", "exited"},
                           {"exit_code", 0},
                           {"signal", 0},
                           {"wall_s", 0.01},
                           {"user_s", 0.01},
                           {"sys_s", 0.0},
                           {"max_rss_kb", 1000},
                           {"samples", samples}});
      }
    }
    writer.append("run.repeats", {{"run", number}, {"repeats", repeats}});
    writer.append("run.finished",
                  {{"run", number}, {"status", status}, {"reason", ""}, {"outputs", json::object()}});
  });
}

void TestJournal::imported(int number, int attempt, double value, const std::string& bench)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("run.imported",
                  {{"run", number},
                   {"bench", bench},
                   {"revision", 1},
                   {"attempt", attempt},
                   {"source", "the write-up"},
                   {"label", ""},
                   {"samples",
                    json::array({{{"metric", m_metric}, {"key", ""}, {"value", value}, {"unit", m_unit}}})}});
  });
}

void TestJournal::baseline(const std::string& plan, int run, const std::string& bench,
                           const std::string& reason)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("baseline.pinned", {{"plan", plan}, {"bench", bench}, {"run", run}, {"reason", reason}});
  });
}

void TestJournal::withdraw(int run, const std::string& reason)
{
  m_journal.write([&](store::Writer& writer) {
    writer.append("run.withdrawn", {{"run", run}, {"reason", reason}});
  });
}

std::string TestJournal::environment(const json& fingerprint)
{
  std::string hash;
  m_journal.write([&](store::Writer& writer) { hash = writer.put_blob(fingerprint.dump()); });
  return hash;
}

} // namespace ej::test
