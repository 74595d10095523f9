// Extraction from everything a benchmark printed, and the result files it writes, as ej run
// meets them: outputs far larger than the capture, files there before the run, globs, quoted
// paths, files too large or not files at all.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("a value printed in the middle of a long log is read, though the capture keeps only head and tail")
{
  EjRepo repo;
  // 2 MB of log before the line, 2 MB after: far outside the 256 KiB head and tail.
  write_text(repo.path() / "bench.sh", "seq 1 300000 | sed 's/^/step: /'\n"
                                       "echo 'verify: 12.5 ms'\n"
                                       "seq 1 300000 | sed 's/^/after /'\n");
  repo.ok({"bench", "add", "long", "--repeat", "2", "--metric", "verify=regex:verify: ([0-9.]+) ms",
           "--metric", "steps=kv:step", "--", "sh", "bench.sh"});
  const auto result = repo.ej({"run", "long", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1);
  CHECK(samples_of(run, "verify") == std::vector<double>{12.5, 12.5});
  CHECK(samples_of(run, "steps").size() == 2 * 300000);
  CHECK(run["outputs"]["stdout_cut_bytes"].get<std::int64_t>() > 3000000);
}

TEST_CASE("a JSON document printed after megabytes of log is read whole from stdout")
{
  EjRepo repo;
  const auto fixture = fixtures_dir() / "nvbench_axes_ref.json";
  REQUIRE(std::filesystem::exists(fixture));
  write_text(repo.path() / "bench.sh",
             "seq 1 200000 | sed 's/^/# warming up /'\ncat '" + fixture.string() + "'\n");
  repo.ok({"bench", "add", "nv", "--repeat", "1", "--metric", "gpu=nvbench", "--", "sh", "bench.sh"});
  const auto result = repo.ej({"run", "nv", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  CHECK_FALSE(samples_of(run, "gpu").empty());
}

TEST_CASE("a result file that existed before the run is moved aside and kept, and the run says so")
{
  EjRepo repo;
  write_text(repo.path() / "history.jsonl", "{\"t\": 99}\n");
  write_text(repo.path() / "bench.sh", "echo '{\"t\": 5}' >> history.jsonl\n");
  repo.ok({"bench", "add", "hist", "--repeat", "3", "--metric", "t=json:t@history.jsonl", "--", "sh",
           "bench.sh"});
  const auto result = repo.ej({"run", "hist", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("'history.jsonl' was there before the run: moved aside to "
                                         "'history.jsonl.before-run-1' (kept)"));
  CHECK(read_text(repo.path() / "history.jsonl.before-run-1") == "{\"t\": 99}\n");
  // Each repeat reads its own record, never the user's.
  CHECK(samples_of(show_run(repo, 1), "t") == std::vector<double>{5, 5, 5});
  CHECK(read_text(repo.path() / "history.jsonl") == "{\"t\": 5}\n");
}

TEST_CASE("a glob reads the newest result file of each repeat and says which")
{
  EjRepo repo;
  write_text(repo.path() / "results" / "vllm-0.json", "{\"mean_ttft_ms\": 1000}");
  write_text(repo.path() / "bench.sh", "sleep 0.02; n=$(ls results | wc -l)\n"
                                       "echo \"{\\\"mean_ttft_ms\\\": $n}\" > results/vllm-$n.json\n");
  repo.ok({"bench", "add", "vllm", "--repeat", "2", "--metric", "ttft=json:mean_ttft_ms@results/vllm-*.json",
           "--", "sh", "bench.sh"});
  const auto result = repo.ej({"run", "vllm", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(samples_of(show_run(repo, 1), "ttft") == std::vector<double>{1, 2});
  CHECK_THAT(result.err,
             Catch::Contains("metric 'ttft' reads 'results/vllm-1.json' (the newest of 1 file matching "
                             "'results/vllm-*.json' written during the repeat)"));
  CHECK(std::filesystem::exists(repo.path() / "results" / "vllm-0.json")); // never touched
}

TEST_CASE("a quoted result path with a space is read, and bench show gives it back quoted")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "mkdir -p 'target/criterion/fib 20/new'\n"
                                       "echo '{\"mean\": {\"point_estimate\": 1500.0}}' > "
                                       "'target/criterion/fib 20/new/estimates.json'\n");
  repo.ok({"bench", "add", "crit", "--repeat", "1", "--metric",
           "fib=criterion:#mean@\"target/criterion/fib 20/new/estimates.json\"", "--", "sh", "bench.sh"});
  CHECK_THAT(repo.ok({"bench", "show", "crit"}),
             Catch::Contains("@\"target/criterion/fib 20/new/estimates.json\""));
  const auto result = repo.ej({"run", "crit", "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(samples_of(show_run(repo, 1), "fib") == std::vector<double>{1500});
}

TEST_CASE("a result file over the size limit, or a FIFO, ends the run as extract-error saying why")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh",
             "head -c 5000 /dev/zero | tr '\\0' ' ' > big.json; echo '{\"t\": 1}' >> big.json\n");
  repo.ok({"bench", "add", "big", "--repeat", "1", "--metric", "t=json:t@big.json", "--", "sh", "bench.sh"});
  const auto refused = repo.ej({"run", "big", "--quiet"}, {{"EJ_MAX_RESULT_SIZE", "4K"}});
  CHECK(refused.exit_code != 0);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "extract-error");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("metric 't'") &&
                                                   Catch::Contains("'big.json'") &&
                                                   Catch::Contains("EJ_MAX_RESULT_SIZE"));
  // Within the limit, the same file is read.
  REQUIRE(repo.ej({"run", "big", "--quiet"}).exit_code == 0);
  CHECK(samples_of(show_run(repo, 2), "t") == std::vector<double>{1});

  write_text(repo.path() / "fifo.sh", "test -p pipe.json || mkfifo pipe.json\n");
  repo.ok({"bench", "add", "fifo", "--repeat", "1", "--metric", "t=json:t@pipe.json", "--", "sh", "fifo.sh"});
  const auto fifo = repo.ej({"run", "fifo", "--quiet"});
  CHECK(fifo.exit_code != 0);
  CHECK_THAT(show_run(repo, 3)["reason"].get<std::string>(), Catch::Contains("not a regular file"));
}

TEST_CASE("bench test reads a saved output of any size from a file or stdin in bounded memory")
{
  EjRepo repo;
  std::string log;
  for (int i = 0; i < 200000; ++i) {
    log += "iteration " + std::to_string(i) + " done in 3 ms\n";
  }
  log += "total: 1,036,537 tok/s\n";
  write_text(repo.path() / "big.log", log);
  const auto out = repo.ok({"bench", "test", "--metric", "total=regex:total: ([0-9,]+)", "big.log"});
  CHECK_THAT(out, Catch::Contains("1036537 tok/s"));

  CommandOptions options;
  options.cwd = repo.path();
  options.env = {{"NO_COLOR", "1"}};
  options.input = log;
  const auto piped =
      run_command({EJ_BINARY, "bench", "test", "--metric", "n=regex:iteration ([0-9]+) done", "-"}, options);
  INFO(piped.err);
  REQUIRE(piped.exit_code == 0);
  CHECK_THAT(piped.out, Catch::Contains("200000 values"));
}
