#include "measure/direction.h"

#include "util/error.h"

#include <catch2/catch.hpp>

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
  CHECK(infer("t=kv:tps", "tok/s").better == Better::Higher);
  CHECK(infer("t=kv:tps", "tok/s").reason == "unit tok/s");
  CHECK(infer("x=kv:Output token throughput (tok/s)").better == Better::Higher);
  CHECK(infer("x=kv:Median TTFT (ms)").better == Better::Lower);
  CHECK(infer("x=gbench:BM_Sum").reason == "unit ns");
  CHECK(infer("x=gbench:BM_Sum#bytes_per_second").better == Better::Higher);
  CHECK(infer("x=nvbench:copy/nv/cold/bw/global/bytes_per_second").better == Better::Higher);
  CHECK(infer("x=hyperfine").better == Better::Lower);
  // a throughput named like a time is still what its unit says
  CHECK(infer("time=regex:([0-9.]+)", "GB/s").better == Better::Higher);
}

TEST_CASE("without a unit, the direction is inferred from the metric's name or key")
{
  CHECK(infer("tok_s=regex:tok ([0-9.]+)").better == Better::Higher);
  CHECK(infer("tok_s=regex:tok ([0-9.]+)").reason == "unit tok/s (in its name)");
  CHECK(infer("verify_ms=regex:verify ([0-9.]+)").better == Better::Lower);
  CHECK(infer("busbw=regex:bw ([0-9.]+)").better == Better::Higher);
  CHECK(infer("decode_throughput=regex:x ([0-9.]+)").better == Better::Higher);
  CHECK(infer("p99=kv:P99 latency").better == Better::Lower);
  CHECK(infer("p99=kv:P99 latency").reason == "the word 'latency' in its key");
  CHECK(infer("out=json:output_throughput").better == Better::Higher);
}

TEST_CASE("nothing to infer from keeps lower, and says it is the default")
{
  const auto inferred = infer("loss=regex:loss ([0-9.]+)");
  CHECK(inferred.better == Better::Lower);
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
  CHECK(specs[0].better == Better::Lower);
  CHECK(specs[1].better == Better::Lower);
  REQUIRE(inferred.size() == 1);
  CHECK(inferred[0].first == "lat_ms");
  CHECK_THROWS_AS(settle_directions(specs, {"tok_s=up"}), ej::UsageError);
}

TEST_CASE("the example benchmarks get the directions examples/README.md states, without --better")
{
  CHECK(infer("time_ms=kv:metric: time_ms").better == Better::Lower);
  CHECK(infer("throughput_gbs=regex:throughput_gbs=([0-9.]+)").better == Better::Higher);
  CHECK(infer("kernel_us=kv:metric: kernel_us").better == Better::Lower);
  CHECK(infer("bandwidth_gbs=kv:metric: bandwidth_gbs").better == Better::Higher);
}
