#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;

TEST_CASE("nccl reads one series per row and place of an all_reduce_perf table, in GB/s")
{
  const auto text = ej::test::read_fixture("nccl_all_reduce_perf_h100_16ranks.txt");
  const auto busbw = extract_text("busbw=nccl", text);
  REQUIRE(busbw.size() == 62); // 31 sizes, out-of-place and in-place
  CHECK(busbw[0].key == "size=8,out-of-place");
  CHECK(busbw[1].key == "size=8,in-place");
  CHECK(busbw.back().key == "size=8589934592,in-place");
  CHECK(busbw.back().value == 337.35);
  CHECK(busbw.back().unit == "GB/s");

  const auto time = extract_text("t=nccl:out-of-place/time", text);
  REQUIRE(time.size() == 31);
  CHECK(time[0].value == 135.8);
  CHECK(time[0].unit == "us");
  CHECK(time[30].value == 47535);

  auto spec = parse_metric_spec("t=nccl:in-place/time");
  spec.unit = "ms";
  CHECK(extract_text(spec, text).back().value == Approx(47.743));

  const auto avg = extract_text("avg=nccl:avg_busbw", text);
  REQUIRE(avg.size() == 1);
  CHECK(avg[0].key.empty());
  CHECK(avg[0].value == 70.742);
}

TEST_CASE("nccl keys rows by test when a log holds several *_perf runs, and reads N/A #wrong columns")
{
  const auto text = ej::test::read_fixture("nccl_alltoall_sendrecv_perf_h100_2nodes.log");
  const auto algbw = extract_text("bw=nccl:in-place/algbw", text);
  REQUIRE(algbw.size() == 20);
  CHECK(algbw[0].key == "alltoall_perf[size=33554432,in-place]");
  CHECK(algbw[0].value == 44.45);
  CHECK(algbw[10].key == "sendrecv_perf[size=33554432,in-place]");
  CHECK(algbw[10].value == 22.87);
  const auto avg = extract_text("avg=nccl:avg_busbw", text);
  REQUIRE(avg.size() == 2);
  CHECK(avg[0].key == "alltoall_perf");
  CHECK(avg[0].value == 23.4795);
  CHECK(avg[1].key == "sendrecv_perf");
}

TEST_CASE("nccl refuses unknown fields and says what it expected of output without a table")
{
  CHECK_THROWS_AS(parse_metric_spec("b=nccl:speed"), ej::UsageError);
  CHECK_THROWS_AS(parse_metric_spec("b=nccl:sideways/busbw"), ej::UsageError);
  CHECK_THROWS_WITH(extract_text("b=nccl", "garbage\n"),
                    Catch::Contains("metric 'b'") && Catch::Contains("stdout holds no nccl-tests table"));
  CHECK_THROWS_WITH(extract_text("b=nccl", ""), Catch::Contains("no nccl-tests table"));
  // cut in the middle of a row
  const auto text = ej::test::read_fixture("nccl_all_reduce_perf_h100_16ranks.txt");
  const auto cut = text.substr(0, text.find("  123.2    0.00"));
  CHECK_THROWS_WITH(extract_text("b=nccl", cut), Catch::Contains("columns where the header names 13"));
}
