// Readers of the console output of the field's tools, on their real outputs.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;
using ej::measure::test::numbers;

namespace {

std::string fixture(const std::string& name)
{
  const auto path = ej::test::fixtures_dir() / name;
  REQUIRE(std::filesystem::is_regular_file(path));
  return ej::test::read_text(path);
}

} // namespace

TEST_CASE("gbench-console reads the rows of Google Benchmark's table and leaves BigO and RMS out")
{
  const auto text = fixture("gbench_console_bigo.txt");
  const auto all = extract_text("t=gbench-console", text);
  REQUIRE(all.size() == 7);
  CHECK(all[0].key == "BM_BinaryGap/1");
  CHECK(all[0].value == 18282);
  CHECK(all[0].unit == "ns");
  CHECK(all[6].key == "BM_SliceSum");
  auto spec = parse_metric_spec("t=gbench-console:BM_FrogJump#cpu_time");
  spec.unit = "us";
  const auto frog = extract_text(spec, text);
  REQUIRE(frog.size() == 1);
  CHECK(frog[0].value == Approx(388.187));
  CHECK_THROWS_WITH(extract_text("t=gbench-console:BM_Nope", text), Catch::Contains("BM_SliceSum"));
  CHECK_THROWS_WITH(extract_text("t=gbench-console", "garbage"),
                    Catch::Contains("no Google Benchmark table"));
  CHECK_THROWS_AS(parse_metric_spec("t=gbench-console:#items_per_second"), ej::UsageError);
}

TEST_CASE("catch2 reads the mean of each benchmark of Catch2's console, in the unit printed")
{
  const auto text = fixture("catch2_v2_console.txt");
  const auto all = extract_text("t=catch2", text);
  REQUIRE(all.size() == 4);
  CHECK(all[0].key == "Fibonacci 10");
  CHECK(all[0].value == 344);
  CHECK(all[0].unit == "ns"); // the first value's unit; 41.731 us is converted to it
  CHECK(all[1].value == Approx(41731));
  CHECK(all[2].key == "Fibonacci~ 5!");
  CHECK(all[3].key == "Fibonacci-15_bench");
  auto spec = parse_metric_spec("t=catch2:Fibonacci 20#high_std_dev");
  spec.unit = "us";
  CHECK(numbers(extract_text(spec, text)) == std::vector<double>{5.353});
  // cut between a benchmark's name and its mean
  const auto cut = text.substr(0, text.find("344 ns"));
  CHECK_THROWS_WITH(extract_text("t=catch2", cut), Catch::Contains("lacks its mean and std dev lines"));
}

TEST_CASE("torch reads each Measurement of torch.utils.benchmark, keyed by its title")
{
  const auto threads = extract_text("t=torch", fixture("torch_utils_benchmark_40_threads.txt"));
  REQUIRE(threads.size() == 2);
  CHECK(threads[0].key == "Multithreaded batch dot: Implemented using mul and sum");
  CHECK(threads[0].value == 118.47);
  CHECK(threads[0].unit == "us");
  const auto cuda = extract_text("t=torch:batched_dot_bmm(x, x)",
                                 fixture("torch_utils_benchmark_blocked_autorange_cuda.txt"));
  REQUIRE(cuda.size() == 1);
  CHECK(cuda[0].value == 162.08); // the Median: form
  auto spec = parse_metric_spec("t=torch");
  spec.unit = "ms";
  const auto cpu = extract_text(spec, fixture("torch_utils_benchmark_timeit_cpu.txt"));
  REQUIRE(cpu.size() == 2);
  CHECK(cpu[1].value == Approx(0.71642));
  CHECK_THROWS_WITH(extract_text("t=torch:nope", fixture("torch_utils_benchmark_timeit_cpu.txt")),
                    Catch::Contains("batched_dot_bmm(x, x)"));
  CHECK_THROWS_WITH(extract_text("t=torch", ""), Catch::Contains("no torch.utils.benchmark Measurement"));
}

TEST_CASE("perf-stat reads counters with thousands separators, and the German locale's")
{
  const auto en = fixture("perf_stat_default_ls.txt");
  const auto cycles = extract_text("c=perf-stat:cycles", en);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0].key == "cycles:u");
  CHECK(cycles[0].value == 1036537);
  const auto clock = extract_text("c=perf-stat:task-clock", en);
  CHECK(clock[0].value == 1.27);
  CHECK(clock[0].unit == "ms");
  CHECK(extract_text("e=perf-stat:elapsed", en)[0].value == Approx(0.002599947));
  CHECK(extract_text("e=perf-stat", en).size() == 11);

  const auto de = fixture("perf_stat_hybrid_cpu_de_locale.txt");
  const auto hybrid = extract_text("c=perf-stat:cycles", de);
  REQUIRE(hybrid.size() == 2);
  CHECK(hybrid[0].key == "cpu_atom/cycles/");
  CHECK(hybrid[0].value == 4595014128);
  CHECK(hybrid[1].value == 3410196830);
  CHECK(extract_text("c=perf-stat:task-clock", de)[0].value == Approx(2132.56));
  CHECK(extract_text("c=perf-stat:elapsed", de)[0].value == Approx(0.254132990));
  CHECK_THROWS_WITH(extract_text("c=perf-stat:nope", de), Catch::Contains("cpu_core/LLC-loads/"));
  CHECK_THROWS_WITH(extract_text("c=perf-stat", "garbage"), Catch::Contains("no 'Performance counter stats"));
}

TEST_CASE("sglang-one-batch reads the benchmark section of bench_one_batch, not the warmup")
{
  const auto text = fixture("sglang_bench_one_batch.txt");
  const auto decode = extract_text("d=sglang-one-batch", text);
  REQUIRE(decode.size() == 1);
  CHECK(decode[0].value == 174.85); // the warmup's is 170.84
  CHECK(decode[0].unit == "tok/s");
  CHECK(extract_text("p=sglang-one-batch:prefill_latency", text)[0].value == 0.01014);
  auto spec = parse_metric_spec("t=sglang-one-batch:total_latency");
  spec.unit = "ms";
  CHECK(extract_text(spec, text)[0].value == Approx(62));
  const auto warmup_only = text.substr(0, text.find("Benchmark ..."));
  CHECK_THROWS_WITH(extract_text("d=sglang-one-batch", warmup_only),
                    Catch::Contains("after 'Benchmark ...'"));
  CHECK_THROWS_AS(parse_metric_spec("d=sglang-one-batch:speed"), ej::UsageError);
}
