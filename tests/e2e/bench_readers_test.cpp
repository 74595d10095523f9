// The readers of the field's tools, as a user tries them: ej bench test on their real outputs.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/temp_dir.h"
#include "util/strings.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// The fixture's path, required to exist.
std::string fixture(const std::string& name)
{
  const auto path = fixtures_dir() / name;
  REQUIRE(std::filesystem::is_regular_file(path));
  return path.string();
}

json tested(const EjRepo& repo, const std::vector<std::string>& args)
{
  std::vector<std::string> all{"bench", "test"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  return json::parse(repo.ok(all));
}

} // namespace

TEST_CASE("bench test reads an nccl-tests table as one series per size and place")
{
  EjRepo repo;
  const auto out = repo.ok({"bench", "test", "--metric", "busbw=nccl:in-place/busbw",
                            fixture("nccl_all_reduce_perf_h100_16ranks.txt")});
  CHECK_THAT(out, Catch::Contains("31 values in GB/s, higher is better (inferred from unit GB/s)"));
  CHECK_THAT(out, Catch::Contains("size=8589934592,in-place  337.35 GB/s"));
}

TEST_CASE("bench test keys SGLang's JSONL records and console blocks by request rate")
{
  EjRepo repo;
  const auto records = tested(repo, {"--metric", "ttft=json:median_ttft_ms;per=request_rate", "--unit",
                                     "ttft=s", fixture("sglang_bench_serving_offline_inf.jsonl")});
  REQUIRE(records.size() == 1);
  CHECK(records[0]["unit"] == "s");
  CHECK(records[0]["better"] == "lower");
  REQUIRE(records[0]["values"].size() == 7);
  CHECK(records[0]["values"][0]["key"] == "request_rate=Infinity");

  const auto blocks = repo.ok({"bench", "test", "--metric",
                               "tok_s=kv:Output token throughput (tok/s);per=Traffic request rate",
                               fixture("sglang_bench_serving_console_qps4.txt")});
  CHECK_THAT(blocks, Catch::Contains("Traffic request rate=4.0  500.61 tok/s"));
}

TEST_CASE("bench test reads the console and result files of the field's other tools")
{
  EjRepo repo;
  const auto perf = tested(
      repo, {"--metric", "cycles=perf-stat:cpu_core/cycles/", fixture("perf_stat_hybrid_cpu_de_locale.txt")});
  CHECK(perf[0]["values"][0]["value"] == 3410196830.0);
  CHECK(perf[0]["better"] == "lower");

  const auto pytest = tested(
      repo, {"--metric", "s=pytest:bench.py::test_sleep_2", fixture("pytest_benchmark_several_units.json")});
  CHECK(pytest[0]["values"].size() == 5);
  CHECK(pytest[0]["unit"] == "s");

  const auto catch2 = tested(
      repo, {"--metric", "fib=catch2:Fibonacci 20", "--unit", "fib=us", fixture("catch2_v2_console.txt")});
  CHECK(catch2[0]["values"][0]["value"] == 41.731);

  const auto torch = tested(repo, {"--metric", "dot=torch", fixture("torch_utils_benchmark_timeit_cpu.txt")});
  CHECK(torch[0]["values"].size() == 2);
  CHECK(torch[0]["unit"] == "us");

  const auto batch =
      tested(repo, {"--metric", "decode=sglang-one-batch", fixture("sglang_bench_one_batch.txt")});
  CHECK(batch[0]["values"][0]["value"] == 174.85);
  CHECK(batch[0]["better"] == "higher");

  const auto criterion =
      tested(repo, {"--metric", "m=criterion:#median", fixture("cargo_criterion_message.json")});
  CHECK(criterion[0]["unit"] == "ns");

  const auto gbench =
      tested(repo, {"--metric", "t=gbench-console:BM_FrogJump", fixture("gbench_console_bigo.txt")});
  CHECK(gbench[0]["values"][0]["value"] == 388163.0);
}

TEST_CASE("bench test reads nvbench markdown, Catch2 XML, Criterion's sample.json and perf stat CSV")
{
  EjRepo repo;
  const auto nvbench =
      tested(repo, {"--metric", "gpu=nvbench:skip_overload", fixture("nvbench_skip_2gpus.md")});
  REQUIRE(nvbench[0]["values"].size() == 8);
  CHECK(nvbench[0]["unit"] == "s");
  CHECK(nvbench[0]["values"][0]["key"] == "skip_overload[Device=0,In=I32,Out=I64]");

  const auto xml = tested(repo, {"--metric", "t=catch2:read | C-buffered | 5k.json", "--unit", "t=us",
                                 fixture("catch2_v2_xml_benchmarks.xml")});
  CHECK(xml[0]["values"][0]["value"] == 4.458);

  const auto samples = tested(repo, {"--metric", "s=criterion", fixture("criterion_sample_fib20_slow.json")});
  CHECK(samples[0]["values"].size() == 100);
  CHECK(samples[0]["unit"] == "ns");

  const auto csv =
      tested(repo, {"--metric", "cycles=perf-stat:cycles", fixture("perf_stat_csv_hybrid_metrics.csv")});
  CHECK(csv[0]["values"].size() == 2);
  CHECK(csv[0]["values"][1]["value"] == 256500230.0);
}

TEST_CASE("bench test fails on output a reader cannot read, naming the metric and what it expected")
{
  EjRepo repo;
  write_text(repo.path() / "garbage.txt", "no table here\n");
  const auto result = repo.ej({"bench", "test", "--metric", "bw=nccl", "garbage.txt"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("metric 'bw'") && Catch::Contains("no nccl-tests table"));
}

TEST_CASE(
    "ej run stores an nccl-tests table as series per size and place, and compare pairs them size with size")
{
  EjRepo repo;
  write_text(repo.path() / "nccl.txt", read_text(fixture("nccl_all_reduce_perf_h100_16ranks.txt")));
  repo.ok({"bench", "add", "ar", "--repeat", "2", "--metric", "busbw=nccl", "--shell", "cat nccl.txt"});
  repo.ok({"run", "ar", "--quiet"});
  repo.ok({"run", "ar", "--quiet"});
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  int keyed = 0;
  for (const auto& series : run["series"]) {
    if (series["metric"] == "busbw" && series["key"] == "size=8589934592,in-place") {
      CHECK(series["unit"] == "GB/s");
      CHECK(series["samples"].size() == 2);
      ++keyed;
    }
  }
  CHECK(keyed == 1);
  const auto compared = json::parse(repo.ok({"compare", "r1", "r2", "--metric", "busbw", "--json"}));
  std::size_t pairs = 0;
  for (const auto& series : compared["series"]) {
    pairs += series["key"] == "size=1024,out-of-place" && series["reference_median"] == 0.01 ? 1 : 0;
  }
  CHECK(pairs == 1);

  write_text(repo.path() / "nccl.txt", "mpirun: not enough slots\n");
  const auto failed = repo.ej({"run", "ar", "--quiet"});
  CHECK(failed.exit_code != 0);
  const auto bad = show_run(repo, 3);
  CHECK(bad["status"] == "extract-error");
  CHECK_THAT(bad["reason"].get<std::string>(),
             Catch::Contains("metric 'busbw'") && Catch::Contains("no nccl-tests table"));
}

TEST_CASE("ej run stores perf counters without a unit, a gbench cv in %, and a Criterion change in %")
{
  EjRepo repo;
  // perf stat without an event: before, every counter was stored in task-clock's ms.
  const auto perf = tested(repo, {"--metric", "e=perf-stat", fixture("perf_stat_default_ls.txt")});
  REQUIRE(perf[0]["values"].size() == 11);
  CHECK(perf[0]["values"][0]["unit"] == "ms");
  CHECK(perf[0]["values"][4]["key"] == "cycles:u");
  CHECK(perf[0]["values"][4]["unit"] == "");
  write_text(repo.path() / "perf.txt", read_text(fixture("perf_stat_default_ls.txt")));
  repo.ok({"bench", "add", "ls", "--repeat", "1", "--metric", "e=perf-stat", "--shell", "cat perf.txt"});
  repo.ok({"run", "ls", "--quiet"});
  const auto perf_run = show_run(repo, 1);
  int counted = 0;
  for (const auto& series : perf_run["series"]) {
    if (series["key"] == "cycles:u") {
      CHECK(series["unit"] == "");
      ++counted;
    } else if (series["key"] == "task-clock:u") {
      CHECK(series["unit"] == "ms");
      ++counted;
    }
  }
  CHECK(counted == 2);

  // perf stat's CPU time sums the threads (8 busy for the whole repeat: 8x its wall time): ej's own
  // measurement, not a time the benchmark printed about itself, so never an impossible one.
  write_text(repo.path() / "threads.txt", " Performance counter stats for './pool':\n\n"
                                          "          8000.00 msec task-clock:u              #    7.990 CPUs utilized\n"
                                          "       1,036,537      cycles:u\n\n"
                                          "       1.001 seconds time elapsed\n\n"
                                          "       7.990000000 seconds user\n"
                                          "       0.010000000 seconds sys\n");
  repo.ok({"bench", "add", "pool", "--repeat", "1", "--metric", "cpu_ms=perf-stat", "--shell", "cat threads.txt"});
  repo.ok({"run", "pool", "--quiet"});
  CHECK(show_run(repo, 2)["status"] == "finished");

  // Google Benchmark's _cv row: before, stored in ns; its aggregate_unit says it is a fraction.
  write_text(repo.path() / "gb.json", R"({"benchmarks": [
    {"name": "BM_Sum/8", "run_name": "BM_Sum/8", "run_type": "iteration", "repetitions": 2, "repetition_index": 0,
     "real_time": 150, "cpu_time": 140, "time_unit": "ns"},
    {"name": "BM_Sum/8", "run_name": "BM_Sum/8", "run_type": "iteration", "repetitions": 2, "repetition_index": 1,
     "real_time": 170, "cpu_time": 160, "time_unit": "ns"},
    {"name": "BM_Sum/8_cv", "run_name": "BM_Sum/8", "run_type": "aggregate", "aggregate_name": "cv",
     "aggregate_unit": "percentage", "real_time": 0.088, "cpu_time": 0.094, "time_unit": "ns"}]})");
  repo.ok({"bench", "add", "gb", "--repeat", "1", "--metric", "t=gbench", "--shell", "cat gb.json"});
  repo.ok({"run", "gb", "--quiet"});
  int found = 0;
  const auto gbench_run = show_run(repo, 3);
  for (const auto& series : gbench_run["series"]) {
    if (series["key"] == "BM_Sum/8_cv") {
      CHECK(series["unit"] == "%");
      ++found;
    } else if (series["key"] == "BM_Sum/8") {
      CHECK(series["unit"] == "ns");
      ++found;
    }
  }
  CHECK(found == 2);

  // Criterion's change/estimates.json: before, -0.0025 ns; it is -0.25%.
  const auto change =
      tested(repo, {"--metric", "c=criterion", fixture("criterion_change_estimates_fib20_slow.json")});
  CHECK(change[0]["unit"] == "%");
  CHECK(change[0]["values"][0]["value"].get<double>() == Approx(-0.2476).epsilon(1e-3));
}

TEST_CASE("bench test reads torch printouts without their Measurement line, and a gbench family by its name")
{
  EjRepo repo;
  std::string bare;
  for (const auto& line : ej::util::lines(read_text(fixture("torch_utils_benchmark_timeit_cpu.txt")))) {
    if (line.find("Measurement object at") == std::string::npos) {
      bare += line + "\n";
    }
  }
  write_text(repo.path() / "torch.txt", bare);
  const auto torch = tested(repo, {"--metric", "dot=torch", "torch.txt"});
  REQUIRE(torch[0]["values"].size() == 2);
  CHECK(torch[0]["values"][1]["key"] == "batched_dot_bmm(x, x)");
  CHECK(torch[0]["values"][1]["value"] == 716.42);

  const auto family = tested(repo, {"--metric", "gap=gbench:BM_BinaryGap", fixture("gbench_bigo_rms.json")});
  REQUIRE(family[0]["values"].size() == 5);
  CHECK(family[0]["values"][4]["key"] == "BM_BinaryGap/1024");
  const auto console =
      tested(repo, {"--metric", "gap=gbench-console:BM_BinaryGap", fixture("gbench_console_bigo.txt")});
  CHECK(console[0]["values"].size() == 5);
}

TEST_CASE("nvbench markdown and --json of one GPU key a state alike, with its device")
{
  EjRepo repo;
  auto one_gpu = read_text(fixture("nvbench_throughput_2gpus.md"));
  const auto second = one_gpu.find("Run:  throughput_bench [Device=1]");
  one_gpu.erase(second, one_gpu.find("```\n\n# Benchmark Results") - second);
  one_gpu.erase(one_gpu.find("### [1] Quadro GP100"));
  write_text(repo.path() / "one.md", one_gpu);
  const auto markdown = tested(repo, {"--metric", "g=nvbench", "one.md"});
  REQUIRE(markdown[0]["values"].size() == 1);
  CHECK(markdown[0]["values"][0]["key"] == "throughput_bench[Device=0]");
  CHECK(markdown[0]["unit"] == "s");
  const auto from_json = tested(repo, {"--metric", "g=nvbench:simple", fixture("nvbench_axes_ref.json")});
  CHECK(from_json[0]["values"][0]["key"] == "simple[Device=0]");
}
