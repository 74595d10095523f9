#include "core/bench_definition.h"
#include "store/events.h"
#include "store/journal.h"
#include "store/run_queries.h"

#include <catch2/catch.hpp>

using namespace ej;
using nlohmann::json;

namespace {

// A benchmark revision stored through its event, and its definition read back from the table.
core::BenchDefinition stored_and_read(const json& metrics)
{
  auto journal = store::Journal::open_memory();
  journal.write([&metrics](store::Writer& writer) {
    writer.append(store::events::BenchRevision{
        false, "b", 1, {{"argv", {"./bench"}}, {"metrics", metrics}, {"primary", "decode"}}});
  });
  const auto bench = store::find_benchmark(journal.db(), "b");
  REQUIRE(bench);
  return core::bench_definition_from_json(bench->definition);
}

} // namespace

TEST_CASE("a stored benchmark's metric specs are read typed, in their order")
{
  const auto metrics = json::array({{{"name", "decode"},
                                     {"kind", "kv"},
                                     {"arg", "tok/s"},
                                     {"file", ""},
                                     {"stream", "stdout"},
                                     {"unit", "tok/s"},
                                     {"better", "higher"},
                                     {"better_given", true}},
                                    {{"name", "gpu_s"},
                                     {"kind", "nvbench"},
                                     {"arg", "copy"},
                                     {"file", "out.json"},
                                     {"stream", "stdout"},
                                     {"unit", ""},
                                     {"better", "lower"},
                                     {"better_given", false}},
                                    {{"name", "err_ms"},
                                     {"kind", "regex"},
                                     {"arg", "took ([0-9]+)"},
                                     {"file", ""},
                                     {"stream", "stderr"},
                                     {"unit", "ms"},
                                     {"better", "lower"},
                                     {"better_given", false}}});
  const auto definition = stored_and_read(metrics);
  CHECK(definition.metrics_damage.empty());
  REQUIRE(definition.metrics.size() == 3);
  const auto& decode = definition.metrics[0];
  CHECK(decode.name == "decode");
  CHECK(decode.kind == core::ExtractorKind::Kv);
  CHECK(decode.arg == "tok/s");
  CHECK(decode.unit == "tok/s");
  CHECK(decode.better == core::Direction::HigherIsBetter);
  CHECK(decode.better_choice == core::DirectionChoice::Given);
  CHECK(definition.metrics[1].kind == core::ExtractorKind::Nvbench);
  CHECK(definition.metrics[1].file == "out.json");
  CHECK(definition.metrics[1].better_choice == core::DirectionChoice::Inferred);
  CHECK(definition.metrics[2].from_stderr);
  // Written back as it was stored: the sync format does not change.
  CHECK(core::to_json(definition).at("metrics") == metrics);
}

TEST_CASE("a metric spec stored by an older ej reads with its direction choice unrecorded, and a newer "
          "one's unknown field is ignored")
{
  const auto definition = stored_and_read(json::array(
      {{{"name", "decode"}, {"kind", "kv"}, {"arg", "tok/s"}, {"better", "higher"}},
       {{"name", "t"}, {"kind", "hyperfine"}, {"arg", ""}, {"better_given", true}, {"window", 3}}}));
  REQUIRE(definition.metrics.size() == 2);
  const auto& legacy = definition.metrics[0];
  CHECK(legacy.better_choice == core::DirectionChoice::Unrecorded);
  CHECK(legacy.file.empty());
  CHECK_FALSE(legacy.from_stderr);
  CHECK(core::to_json(legacy).contains("better_given") == false); // kept as it was stored
  CHECK(definition.metrics[1].kind == core::ExtractorKind::Hyperfine);
  CHECK(definition.metrics[1].better_choice == core::DirectionChoice::Given);
}

TEST_CASE("a damaged metric spec leaves the rest of the definition readable and is said once")
{
  const auto definition = stored_and_read(json::array(
      {{{"name", "decode"}, {"kind", "kv"}, {"arg", "tok/s"}}, {{"name", "x"}, {"kind", "csv"}}}));
  CHECK(definition.argv == std::vector<std::string>{"./bench"});
  CHECK(definition.primary == "decode");
  CHECK_THAT(definition.metrics_damage, Catch::Contains("unknown kind") && Catch::Contains("csv"));
}
