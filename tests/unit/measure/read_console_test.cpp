// Readers of the console output of the field's tools, on their real outputs.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"
#include "util/strings.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;
using ej::measure::test::numbers;

TEST_CASE("gbench-console reads the rows of Google Benchmark's table and leaves BigO and RMS out")
{
  const auto text = ej::test::read_fixture("gbench_console_bigo.txt");
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
  const auto text = ej::test::read_fixture("catch2_v2_console.txt");
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
  const auto threads =
      extract_text("t=torch", ej::test::read_fixture("torch_utils_benchmark_40_threads.txt"));
  REQUIRE(threads.size() == 2);
  CHECK(threads[0].key == "Multithreaded batch dot: Implemented using mul and sum");
  CHECK(threads[0].value == 118.47);
  CHECK(threads[0].unit == "us");
  const auto cuda = extract_text("t=torch:batched_dot_bmm(x, x)",
                                 ej::test::read_fixture("torch_utils_benchmark_blocked_autorange_cuda.txt"));
  REQUIRE(cuda.size() == 1);
  CHECK(cuda[0].value == 162.08); // the Median: form
  auto spec = parse_metric_spec("t=torch");
  spec.unit = "ms";
  const auto cpu = extract_text(spec, ej::test::read_fixture("torch_utils_benchmark_timeit_cpu.txt"));
  REQUIRE(cpu.size() == 2);
  CHECK(cpu[1].value == Approx(0.71642));
  CHECK_THROWS_WITH(
      extract_text("t=torch:nope", ej::test::read_fixture("torch_utils_benchmark_timeit_cpu.txt")),
      Catch::Contains("batched_dot_bmm(x, x)"));
  CHECK_THROWS_WITH(extract_text("t=torch", ""), Catch::Contains("no torch.utils.benchmark Measurement"));
}

TEST_CASE("perf-stat reads counters with thousands separators, and the German locale's")
{
  const auto en = ej::test::read_fixture("perf_stat_default_ls.txt");
  const auto cycles = extract_text("c=perf-stat:cycles", en);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0].key == "cycles:u");
  CHECK(cycles[0].value == 1036537);
  const auto clock = extract_text("c=perf-stat:task-clock", en);
  CHECK(clock[0].value == 1.27);
  CHECK(clock[0].unit == "ms");
  CHECK(extract_text("e=perf-stat:elapsed", en)[0].value == Approx(0.002599947));
  CHECK(extract_text("e=perf-stat", en).size() == 11);

  const auto de = ej::test::read_fixture("perf_stat_hybrid_cpu_de_locale.txt");
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
  const auto text = ej::test::read_fixture("sglang_bench_one_batch.txt");
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

TEST_CASE("perf-stat reads -x CSV with any separator, not-counted events skipped and named")
{
  const auto semicolons = ej::test::read_fixture("perf_stat_csv_semicolon_not_counted.csv"); // perf stat -x\;
  const auto all = extract_text("c=perf-stat", semicolons);
  CHECK(all.size() == 14); // the "stalled cycles per insn" metric row is not a counter
  const auto cycles = extract_text("c=perf-stat:cycles", semicolons);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0].key == "cycles:u");
  CHECK(cycles[0].value == 297468);
  const auto clock = extract_text("c=perf-stat:task-clock", semicolons);
  CHECK(clock[0].value == 0.28);
  CHECK(clock[0].unit == "ms");
  const auto loads = extract_text("c=perf-stat:L1-dcache-loads", semicolons);
  REQUIRE(loads.size() == 1);
  CHECK(loads[0].skipped);
  CHECK(loads[0].note == "<not counted>");
  CHECK(extract_text("c=perf-stat:LLC-loads", semicolons)[0].note == "<not supported>");

  const auto hybrid = ej::test::read_fixture("perf_stat_csv_hybrid_metrics.csv"); // perf stat -x, -a sleep 1
  const auto both = extract_text("c=perf-stat:cycles", hybrid);
  REQUIRE(both.size() == 2);
  CHECK(both[0].key == "cpu_core/cycles/");
  CHECK(both[0].value == 6766433);
  CHECK(both[1].key == "cpu_atom/cycles/");
  CHECK(both[1].value == 256500230);
  CHECK(extract_text("c=perf-stat:cpu-clock", hybrid)[0].value == Approx(32139.34));
  CHECK(extract_text("c=perf-stat", hybrid).size() == 12); // TopdownL1 metric rows left out
  CHECK_THROWS_WITH(extract_text("c=perf-stat:nope", hybrid), Catch::Contains("cpu_atom/branch-misses/"));
}

TEST_CASE("perf-stat CSV that is empty or lacks its event column is an error naming the metric")
{
  CHECK_THROWS_WITH(extract_text("c=perf-stat", "# started on Sun Jul 23 16:33:56 2023\n\n"),
                    Catch::Contains("metric 'c'") && Catch::Contains("nor rows of its -x CSV"));
  CHECK_THROWS_WITH(extract_text("c=perf-stat", "297468;;\n"), Catch::Contains("metric 'c'") &&
                                                                   Catch::Contains("'297468;;'") &&
                                                                   Catch::Contains("has no event"));
}

TEST_CASE("perf-stat without an event gives counts no unit: only task-clock is in msec")
{
  // Before, every counter took task-clock's unit: "cycles:u 1036537 ms".
  const auto all = extract_text("e=perf-stat", ej::test::read_fixture("perf_stat_default_ls.txt"));
  REQUIRE(all.size() == 11);
  CHECK(all[0].key == "task-clock:u");
  CHECK(all[0].unit == "ms");
  CHECK(all[0].value == Approx(1.27));
  CHECK(all[4].key == "cycles:u");
  CHECK(all[4].value == 1036537);
  CHECK(all[4].unit.empty());
  CHECK(all[4].own_unit);
  CHECK(all[8].key == "elapsed");
  CHECK(all[8].unit == "ms"); // a time, converted to the metric's unit
  CHECK(all[8].value == Approx(2.599947));
  // The CSV form says the same: counts have an empty unit column.
  const auto csv = extract_text("e=perf-stat", ej::test::read_fixture("perf_stat_csv_hybrid_metrics.csv"));
  for (const auto& value : csv) {
    if (value.key.find("cycles") != std::string::npos) {
      CHECK(value.unit.empty());
    }
  }
}

TEST_CASE("torch reads printouts without their Measurement object line, as pasted in notebooks and logs")
{
  // The tutorial's printouts with the "<torch.utils.benchmark...Measurement object at ...>" lines
  // left out: before, nothing was found.
  std::string bare;
  for (const auto& line : ej::util::lines(ej::test::read_fixture("torch_utils_benchmark_40_threads.txt"))) {
    if (!line.starts_with("<torch.utils.benchmark.utils.common.Measurement object at")) {
      bare += line + "\n";
    }
  }
  const auto threads = extract_text("t=torch", bare);
  REQUIRE(threads.size() == 2);
  CHECK(threads[0].key ==
        "Multithreaded batch dot: Implemented using mul and sum"); // not "Benchmarking on 40 threads"
  CHECK(threads[0].value == 118.47);
  CHECK(threads[1].key == "Multithreaded batch dot: Implemented using bmm");
  CHECK(threads[1].value == 68.21);

  // The Median: form with its IQR line, and a statement printed with its own indentation.
  constexpr std::string_view k_pasted = R"(print(t0.timeit(100))
: torch.sqrt(torch.linalg.det(sigma))
  80.80 us
  1 measurement, 100 runs , 1 thread

    env.rollout(100)
        Median: 122.40 ms
        IQR:    0.07 ms (122.36 to 122.43)
        4 measurements, 1 runs per measurement, 1 thread
)";
  const auto pasted = extract_text("t=torch", k_pasted);
  REQUIRE(pasted.size() == 2);
  CHECK(pasted[0].key == ": torch.sqrt(torch.linalg.det(sigma))");
  CHECK(pasted[0].value == 80.80);
  CHECK(pasted[1].key == "env.rollout(100)");
  CHECK(pasted[1].value == Approx(122400));
  CHECK(pasted[1].unit == "us");
  // A number indented in a log is no printout without its statistics line.
  CHECK_THROWS_WITH(extract_text("t=torch", "copying\n  12.5 ms\ndone\n"),
                    Catch::Contains("no torch.utils.benchmark Measurement"));
}

TEST_CASE("gbench-console and gbench select a family by its name: BM_BinaryGap is BM_BinaryGap/1 ... /1024")
{
  const auto console =
      extract_text("t=gbench-console:BM_BinaryGap", ej::test::read_fixture("gbench_console_bigo.txt"));
  REQUIRE(console.size() == 5);
  CHECK(console[0].key == "BM_BinaryGap/1");
  CHECK(console[4].key == "BM_BinaryGap/1024");
  CHECK(console[4].value == 18302);
  const auto json = extract_text("t=gbench:BM_BinaryGap", ej::test::read_fixture("gbench_bigo_rms.json"));
  REQUIRE(json.size() == 5);
  CHECK(json[1].key == "BM_BinaryGap/8");
  CHECK_FALSE(json[1].aggregate);
  // A name is a family only up to a '/': BM_Binary is not BM_BinaryGap's.
  CHECK_THROWS_WITH(extract_text("t=gbench:BM_Binary", ej::test::read_fixture("gbench_bigo_rms.json")),
                    Catch::Contains("no row named 'BM_Binary' or of its family 'BM_Binary/...'") &&
                        Catch::Contains("stdout"));
}
