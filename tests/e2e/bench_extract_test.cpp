// How ej reads numbers from benchmark outputs, as a user meets it: ej bench test on saved
// outputs, the direction bench add infers and says, and units converted by ej run.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// What SGLang's bench_serving prints at the end of a run (abridged).
constexpr std::string_view k_sglang = R"(============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Successful requests:                     200
Request throughput (req/s):              4.83
Output token throughput (tok/s):         92.56
---------------Time to First Token----------------
Mean TTFT (ms):                          261.13
Median TTFT (ms):                        250.50
==================================================
)";

CommandResult ej_with_input(const EjRepo& repo, const std::vector<std::string>& args,
                            const std::string& input)
{
  std::vector<std::string> argv{EJ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandOptions options;
  options.cwd = repo.path();
  options.env = {{"NO_COLOR", "1"}};
  options.input = input;
  return run_command(argv, options);
}

} // namespace

TEST_CASE("bench test shows what metrics read from a saved output, with units, keys and direction")
{
  EjRepo repo;
  write_text(repo.path() / "sglang.txt", std::string(k_sglang));
  const auto out = repo.ok({"bench", "test", "--metric", "tok_s=kv:Output token throughput (tok/s)",
                            "--metric", "ttft=kv:Median TTFT (ms)", "--unit", "ttft=s", "sglang.txt"});
  CHECK_THAT(out, Catch::Contains("tok_s  tok_s=kv:Output token throughput (tok/s)"));
  CHECK_THAT(out, Catch::Contains("1 value in tok/s, higher is better (inferred from unit tok/s)"));
  CHECK_THAT(out, Catch::Contains("  92.56 tok/s"));
  CHECK_THAT(out, Catch::Contains("lower is better (inferred from unit s)"));
  CHECK_THAT(out, Catch::Contains("  0.2505 s")); // converted from the key's ms
  // nothing was registered
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("no benchmarks yet"));

  // The file stands for the result file a metric reads, too.
  write_text(repo.path() / "h.json",
             R"({"results": [{"command": "sleep 0.1", "times": [0.1025, 0.1031], "exit_codes": [0, 0]}]})");
  const auto hyperfine = repo.ok({"bench", "test", "--metric", "t=hyperfine@out/h.json", "--unit", "t=ms", "h.json"});
  CHECK_THAT(hyperfine, Catch::Contains("2 values in ms, lower is better (inferred from unit ms)"));
  CHECK_THAT(hyperfine, Catch::Contains("sleep 0.1  102.5 ms"));
}

TEST_CASE("bench test reads stdin and prints JSON with the key of each value")
{
  EjRepo repo;
  const std::string gbench = R"({"benchmarks": [
    {"name": "BM_Copy/64", "run_name": "BM_Copy/64", "run_type": "iteration", "real_time": 2.5, "time_unit": "us",
     "bytes_per_second": 2.0e9},
    {"name": "BM_Copy/4096", "run_name": "BM_Copy/4096", "run_type": "iteration", "real_time": 1.5, "time_unit": "ms",
     "bytes_per_second": 8.0e9}]})";
  const auto result =
      ej_with_input(repo,
                    {"bench", "test", "--metric", "t=gbench", "--metric", "bw=gbench:#bytes_per_second",
                     "--unit", "bw=GB/s", "--better", "t=higher", "--json", "-"},
                    gbench);
  REQUIRE(result.exit_code == 0);
  const auto metrics = json::parse(result.out);
  REQUIRE(metrics.size() == 2);
  CHECK(metrics[0]["name"] == "t");
  CHECK(metrics[0]["better"] == "higher"); // --better wins over the unit
  CHECK(metrics[0]["direction"] == "given with --better");
  REQUIRE(metrics[0]["values"].size() == 2);
  CHECK(metrics[0]["values"][0]["key"] == "BM_Copy/64");
  CHECK(metrics[0]["values"][0]["value"] == 2500.0);
  CHECK(metrics[0]["values"][1]["value"] == 1500000.0);
  CHECK(metrics[0]["values"][1]["unit"] == "ns");
  CHECK(metrics[1]["unit"] == "GB/s");
  CHECK(metrics[1]["better"] == "higher");
  CHECK(metrics[1]["values"][1]["value"] == 8.0);
  CHECK(metrics[1]["values"][1]["kind"] == "sample");
}

TEST_CASE("bench test fails as a run would, naming the metric and what was expected")
{
  EjRepo repo;
  write_text(repo.path() / "garbage.txt", "Segmentation fault (core dumped)\n");
  auto result = repo.ej({"bench", "test", "--metric", "m=json:x", "garbage.txt"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("ej: error: metric 'm': stdout holds no JSON document") &&
                             Catch::Contains("| Segmentation fault (core dumped)"));

  result = repo.ej({"bench", "test", "--metric", "tok_s=kv:Request throughput", "garbage.txt"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("metric 'tok_s'") && Catch::Contains("Segmentation fault"));

  write_text(repo.path() / "sglang.txt", std::string(k_sglang));
  result = repo.ej(
      {"bench", "test", "--metric", "r=kv:Request throughput (req/s)", "--unit", "r=ms", "sglang.txt"});
  CHECK(result.exit_code == 2); // refused before anything is read
  CHECK_THAT(result.err, Catch::Contains("metric 'r' reads a rate of req in 'req/s'") &&
                             Catch::Contains("does not convert to 'ms'"));

  result = repo.ej({"bench", "test", "--metric", "m=kv:x", "missing.txt"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("cannot read 'missing.txt'"));
  CHECK(repo.ej({"bench", "test", "garbage.txt"}).exit_code == 2);
}

TEST_CASE("bench test --bench tries a registered benchmark's metrics on a saved output")
{
  EjRepo repo;
  repo.ok({"bench", "add", "serve", "--metric", "tok_s=kv:Output token throughput (tok/s)", "--better",
           "tok_s=lower", "--", "true"});
  write_text(repo.path() / "sglang.txt", std::string(k_sglang));
  const auto out =
      repo.ok({"bench", "test", "--bench", "serve", "--metric", "ok=kv:Successful requests", "sglang.txt"});
  CHECK_THAT(out, Catch::Contains("lower is better (as registered)"));
  CHECK_THAT(out, Catch::Contains("92.56 tok/s"));
  CHECK_THAT(out, Catch::Contains("ok  ok=kv:Successful requests"));
  CHECK_THAT(out, Catch::Contains("  200\n"));
  const auto missing = repo.ej({"bench", "test", "--bench", "nope", "sglang.txt"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no benchmark named 'nope'"));
}

TEST_CASE("bench add says the direction it inferred for each metric, and --better wins")
{
  EjRepo repo;
  const auto out = repo.ok({"bench", "add", "serve", "--metric", "tok_s=kv:Output token throughput (tok/s)",
                            "--metric", "ttft=kv:Median TTFT (ms)", "--metric", "loss=regex:loss ([0-9.]+)",
                            "--metric", "bw=regex:bw ([0-9.]+)", "--better", "bw=lower", "--", "true"});
  CHECK_THAT(out, Catch::StartsWith("registered benchmark serve (revision 1)\n"));
  CHECK_THAT(out,
             Catch::Contains("  tok_s: higher is better (inferred from unit tok/s; --better tok_s=lower to "
                             "change)\n"));
  CHECK_THAT(out, Catch::Contains("  ttft: lower is better (inferred from unit ms;"));
  CHECK_THAT(out, Catch::Contains("  loss: lower is better (the default"));
  CHECK_THAT(out, !Catch::Contains("bw:"));

  const auto definition =
      json::parse(repo.ok({"bench", "show", "serve", "--json"}))["revisions"][0]["definition"];
  CHECK(definition["metrics"][0]["better"] == "higher"); // stored, not inferred again on reading
  CHECK(definition["metrics"][1]["better"] == "lower");
  CHECK(definition["metrics"][3]["better"] == "lower");
  CHECK_THAT(repo.ok({"bench", "show", "serve"}),
             Catch::Contains("tok_s=kv:Output token throughput (tok/s) [tok/s, higher is better]"));
}

TEST_CASE("bench add refuses JSONPath and a unit that does not convert, saying what to write")
{
  EjRepo repo;
  auto result = repo.ej({"bench", "add", "b", "--metric", "m=json:$.x", "--", "true"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("JSONPath") && Catch::Contains("results.0.mean"));
  result = repo.ej({"bench", "add", "b", "--metric", "t=hyperfine@h.json", "--unit", "t=GB/s", "--", "true"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("metric 't' reads a time in 's'"));
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("no benchmarks yet"));
}

TEST_CASE("ej run converts values printed in several units to the metric's unit")
{
  EjRepo repo;
  repo.ok({"bench", "add", "t", "--repeat", "1", "--metric", "lat=kv:latency", "--unit", "lat=us", "--shell",
           // It takes the 2 ms it reports (a longer time than its repeat would make the run invalid).
           "sleep 0.01; echo 'latency: 2 ms'; echo 'latency: 1500 ns'; echo 'latency: 7 us'"});
  repo.ok({"run", "t", "--quiet"});
  const auto run = show_run(repo, 1);
  CHECK(samples_of(run, "lat") == std::vector<double>{2000, 1.5, 7});
  bool found = false;
  for (const auto& series : run["series"]) {
    if (series["metric"] == "lat") {
      CHECK(series["unit"] == "us");
      found = true;
    }
  }
  CHECK(found);

  repo.ok({"bench", "add", "bad", "--repeat", "1", "--metric", "lat=kv:latency", "--unit", "lat=GB/s",
           "--shell", "echo 'latency: 2 ms'"});
  const auto failed = repo.ej({"run", "bad", "--quiet"});
  CHECK(failed.exit_code != 0);
  const auto bad = show_run(repo, 2);
  CHECK(bad["status"] == "extract-error");
  CHECK_THAT(bad["reason"].get<std::string>(), Catch::Contains("metric 'lat'") && Catch::Contains("'GB/s'"));
}

TEST_CASE("a throughput whose unit only the output says is judged higher-is-better once its unit is seen")
{
  EjRepo repo;
  // sglang bench_one_batch's median decode line, read with a generic regex: neither the metric's
  // name nor a unit of its own says which way it improves, until "tok/s" is printed.
  write_text(repo.path() / "bench.sh",
             R"sh(n=$(cat counter 2>/dev/null || echo 0); n=$((n+1)); echo $n > counter
echo "Decode.  median latency: 0.00571 s, median throughput:    $(cat base).$((n % 7)) tok/s"
)sh");
  const auto added = repo.ok({"bench", "add", "decode", "--repeat", "7", "--metric",
                              "med=regex:median throughput:\\s+([0-9.]+)", "--", "sh", "bench.sh"});
  CHECK_THAT(added, Catch::Contains("med: lower is better (the default") &&
                        Catch::Contains("a unit its values show at run time will decide"));
  repo.ok({"plan", "new", "p", "--title", "Decode"});
  repo.ok({"try", "baseline", "--plan", "p"});
  write_text(repo.path() / "base", "170");
  const auto first = repo.ej({"run", "decode", "--attempt", "1", "--quiet"});
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.err, Catch::Contains("ej: metric 'med' is in tok/s: higher is better"));
  write_text(repo.path() / "base", "180");
  repo.ok({"run", "decode", "--attempt", "1", "--quiet"});
  // The plan document says it too.
  CHECK_THAT(repo.ok({"plan", "render", "p", "--stdout"}),
             Catch::Contains("primary metric med (tok/s), higher is better."));
  // Before, the gain from 170 to 180 tok/s was called a regression.
  const auto compared = json::parse(repo.ok({"compare", "r1", "r2", "--metric", "med", "--json"}));
  REQUIRE(compared["series"].size() == 1);
  CHECK(compared["series"][0]["unit"] == "tok/s");
  CHECK(compared["series"][0]["outcome"] == "improved");

  // bench test judges it as ej run does, and says why.
  write_text(repo.path() / "out.txt",
             "Decode.  median latency: 0.00571 s, median throughput:    174.85 tok/s\n");
  const auto tested =
      repo.ok({"bench", "test", "--metric", "med=regex:median throughput:\\s+([0-9.]+)", "out.txt"});
  CHECK_THAT(tested,
             Catch::Contains("1 value in tok/s, higher is better (inferred from unit tok/s (seen in the "
                             "output))"));
  const auto registered = repo.ok({"bench", "test", "--bench", "decode", "out.txt"});
  CHECK_THAT(registered, Catch::Contains("higher is better (from its unit tok/s"));

  // --better always wins, and a metric nothing decides says so at each run.
  repo.ok({"bench", "edit", "decode", "--better", "med=lower"});
  const auto given = repo.ej({"run", "decode", "--quiet"});
  CHECK_THAT(given.err, !Catch::Contains("metric 'med'"));
  repo.ok({"bench", "add", "loss", "--repeat", "1", "--metric", "loss=regex:loss ([0-9.]+)", "--shell",
           "echo loss 0.5"});
  const auto undecided = repo.ej({"run", "loss", "--quiet"});
  CHECK_THAT(undecided.err, Catch::Contains("metric 'loss': lower is better by default") &&
                                Catch::Contains("ej bench edit loss --better loss=higher"));
}

TEST_CASE("bench add refuses an unquoted @FILE with blanks, saying how to quote it")
{
  EjRepo repo;
  // Before, "mean@my run.json" became the JSON path, and each run said stdout was empty.
  const auto refused = repo.ej({"bench", "add", "b", "--metric", "m=json:mean@my run.json", "--", "true"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err,
             Catch::Contains("'@my run.json'") && Catch::Contains("--metric 'm=json:mean@\"my run.json\"'"));
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("no benchmarks yet"));
  // Once the file is there, it is the file meant.
  write_text(repo.path() / "my run.json", R"({"mean": 4.5})");
  repo.ok({"bench", "add", "b", "--repeat", "1", "--metric", "m=json:mean@my run.json", "--", "true"});
  CHECK_THAT(repo.ok({"bench", "show", "b"}), Catch::Contains("m=json:mean@\"my run.json\""));
}

TEST_CASE("pytest#median and gbench#cpu_time leave out the ':' before '#', as README writes them")
{
  EjRepo repo;
  // Before: "unknown extractor kind 'pytest#median'".
  const auto median =
      json::parse(repo.ok({"bench", "test", "--metric", "m=pytest#median", "--json",
                           (fixtures_dir() / "pytest_benchmark_several_units.json").string()}));
  REQUIRE(median[0]["values"].size() == 4);
  CHECK(median[0]["spec"] == "m=pytest:#median");
  repo.ok({"bench", "add", "g", "--metric", "t=gbench#cpu_time@gb.json", "--", "true"});
}
