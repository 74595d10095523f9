#include "measure/direction.h"

#include "util/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::measure;

namespace {

InferredBetter infer(std::string_view spec, std::string_view unit = "")
{
  auto parsed = parse_metric_spec(spec);
  parsed.unit = std::string(unit);
  return infer_better(parsed);
}

} // namespace

TEST_CASE("the direction is inferred from the unit first")
{
  CHECK(infer("t=kv:tps", "tok/s").better == Direction::HigherIsBetter);
  CHECK(infer("t=kv:tps", "tok/s").reason == "unit tok/s");
  CHECK(infer("x=kv:Output token throughput (tok/s)").better == Direction::HigherIsBetter);
  CHECK(infer("x=kv:Median TTFT (ms)").better == Direction::LowerIsBetter);
  CHECK(infer("x=gbench:BM_Sum").reason == "unit ns");
  CHECK(infer("x=gbench:BM_Sum#bytes_per_second").better == Direction::HigherIsBetter);
  CHECK(infer("x=nvbench:copy/nv/cold/bw/global/bytes_per_second").better == Direction::HigherIsBetter);
  CHECK(infer("x=hyperfine").better == Direction::LowerIsBetter);
  // a throughput named like a time is still what its unit says
  CHECK(infer("time=regex:([0-9.]+)", "GB/s").better == Direction::HigherIsBetter);
}

TEST_CASE("without a unit, the direction is inferred from the metric's name or key")
{
  CHECK(infer("tok_s=regex:tok ([0-9.]+)").better == Direction::HigherIsBetter);
  CHECK(infer("tok_s=regex:tok ([0-9.]+)").reason == "unit tok/s (in its name)");
  CHECK(infer("verify_ms=regex:verify ([0-9.]+)").better == Direction::LowerIsBetter);
  CHECK(infer("busbw=regex:bw ([0-9.]+)").better == Direction::HigherIsBetter);
  CHECK(infer("decode_throughput=regex:x ([0-9.]+)").better == Direction::HigherIsBetter);
  CHECK(infer("p99=kv:P99 latency").better == Direction::LowerIsBetter);
  CHECK(infer("p99=kv:P99 latency").reason == "the word 'latency' in its key");
  CHECK(infer("out=json:output_throughput").better == Direction::HigherIsBetter);
}

TEST_CASE("nothing to infer from keeps lower, and says it is the default")
{
  const auto inferred = infer("loss=regex:loss ([0-9.]+)");
  CHECK(inferred.better == Direction::LowerIsBetter);
  CHECK(inferred.reason.empty());
  CHECK_THAT(describe_inference("loss", inferred),
             Catch::Contains("the default") && Catch::Contains("--better loss=higher"));
  CHECK(describe_inference("tok_s", infer("tok_s=kv:x", "tok/s")) ==
        "tok_s: higher is better (inferred from unit tok/s; --better tok_s=lower to change)");
}

TEST_CASE("a --better option always wins, and only the other metrics are inferred")
{
  std::vector<MetricSpec> specs{parse_metric_spec("tok_s=kv:x"), parse_metric_spec("lat_ms=kv:y")};
  const auto inferred = settle_directions(specs, {"tok_s=lower"});
  CHECK(specs[0].better == Direction::LowerIsBetter);
  CHECK(specs[1].better == Direction::LowerIsBetter);
  REQUIRE(inferred.size() == 1);
  CHECK(inferred[0].first == "lat_ms");
  CHECK_THROWS_AS(settle_directions(specs, {"tok_s=up"}), ej::UsageError);
}

TEST_CASE("the example benchmarks get the directions examples/README.md states, without --better")
{
  CHECK(infer("time_ms=kv:metric: time_ms").better == Direction::LowerIsBetter);
  CHECK(infer("throughput_gbs=regex:throughput_gbs=([0-9.]+)").better == Direction::HigherIsBetter);
  CHECK(infer("kernel_us=kv:metric: kernel_us").better == Direction::LowerIsBetter);
  CHECK(infer("bandwidth_gbs=kv:metric: bandwidth_gbs").better == Direction::HigherIsBetter);
}

TEST_CASE("a unit seen at run time decides an inferred direction, and --better always wins")
{
  // The regex of issue 25: neither its unit nor its name says, until "174.85 tok/s" is read.
  auto spec = parse_metric_spec("decode=regex:median throughput:\\s+([0-9.]+)");
  std::vector<MetricSpec> specs{spec};
  settle_directions(specs, {});
  spec = specs.front();
  CHECK(spec.better == Direction::LowerIsBetter);
  CHECK_FALSE(direction_given(spec));
  CHECK(judged_better(spec, "tok/s") == Direction::HigherIsBetter);
  CHECK(judged_better(spec, "ms") == Direction::LowerIsBetter);
  CHECK(judged_better(spec, "") == Direction::LowerIsBetter);
  CHECK(judged_better(spec, "frames") == Direction::LowerIsBetter); // a count says nothing
  CHECK(infer_better(spec, "tok/s").reason == "unit tok/s (seen in the output)");
  CHECK_THAT(direction_note(spec, "tok/s", "serve"),
             Catch::Contains("metric 'decode' is in tok/s: higher is better") &&
                 Catch::Contains("ej bench edit serve --better decode=lower"));
  CHECK_THAT(direction_note(spec, "", "serve"),
             Catch::Contains("lower is better by default") && Catch::Contains("--better decode=higher"));
  CHECK(direction_note(spec, "ms", "serve").empty());

  std::vector<MetricSpec> given{parse_metric_spec("decode=regex:median throughput:\\s+([0-9.]+)")};
  settle_directions(given, {"decode=lower"});
  CHECK(direction_given(given.front()));
  CHECK(judged_better(given.front(), "tok/s") == Direction::LowerIsBetter);
  CHECK(direction_note(given.front(), "tok/s", "serve").empty());
}

TEST_CASE("values in % from a reader of times are lower-is-better, and the reason names the %")
{
  // A gbench _cv row and Criterion's change/estimates.json are in %, not in the reader's ns.
  for (const auto* text : {"c=criterion#mean", "t=gbench:BM_Sum"}) {
    INFO(text);
    const auto spec = parse_metric_spec(text);
    const auto inferred = infer_better(spec, "%");
    CHECK(inferred.better == Direction::LowerIsBetter);
    CHECK(inferred.reason == "unit %, relative to ns");
    CHECK(infer_better(spec, "ns").reason == "unit ns");
  }
}

TEST_CASE("a stored spec keeps whether --better gave its direction, and an older one counts it given when "
          "not inferred")
{
  auto spec = parse_metric_spec("decode=regex:x ([0-9.]+)");
  spec.better_choice = DirectionChoice::Given;
  CHECK(direction_given(checked_stored_spec(ej::core::metric_spec_from_json(to_json(spec)))));
  spec.better_choice = DirectionChoice::Inferred;
  CHECK_FALSE(direction_given(checked_stored_spec(ej::core::metric_spec_from_json(to_json(spec)))));
  // Before "better_given" was stored: lower is what ej infers here, higher was given.
  auto legacy = to_json(spec);
  legacy.erase("better_given");
  CHECK_FALSE(direction_given(checked_stored_spec(ej::core::metric_spec_from_json(legacy))));
  legacy["better"] = "higher";
  CHECK(direction_given(checked_stored_spec(ej::core::metric_spec_from_json(legacy))));
}
