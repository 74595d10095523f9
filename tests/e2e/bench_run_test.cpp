// ej bench add|list|show|edit, ej run (parameters, environment, repeat policies, extractors),
// ej runs and ej show run, driven through the built binary with small shell-script benchmarks.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace ej::test;
using nlohmann::json;

namespace {

std::vector<std::string> file_lines(const std::filesystem::path& path)
{
  std::vector<std::string> out;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) {
    out.push_back(line);
  }
  return out;
}

json bench_json(const EjRepo& repo, const std::string& name)
{
  return json::parse(repo.ok({"bench", "show", name, "--json"}));
}

} // namespace

TEST_CASE("bench add records the definition that bench list and bench show report, in text and JSON")
{
  EjRepo repo;
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("no benchmarks yet"));
  CHECK(repo.ok({"bench",
                 "add",
                 "transpose",
                 "--param",
                 "variant=naive,blocked",
                 "--repeat",
                 "4",
                 "--warmup",
                 "1",
                 "--timeout",
                 "30",
                 "--env",
                 "OMP_NUM_THREADS=2",
                 "--cwd",
                 "sub",
                 "--metric",
                 "time_ms=regex:time_ms=([0-9.]+)",
                 "--metric",
                 "gbs=kv:throughput",
                 "--unit",
                 "time_ms=ms",
                 "--better",
                 "gbs=higher",
                 "--primary",
                 "gbs",
                 "--min-effect",
                 "2",
                 "--",
                 "sh",
                 "bench.sh",
                 "--variant",
                 "{variant}"}) == "registered benchmark transpose (revision 1)\n"
                                  "  time_ms: lower is better (inferred from unit ms; --better time_ms=higher to "
                                  "change)\n"); // gbs has --better: nothing inferred

  const auto list = json::parse(repo.ok({"bench", "list", "--json"}));
  REQUIRE(list.size() == 1);
  CHECK(list[0]["name"] == "transpose");
  CHECK(list[0]["revision"] == 1);
  const auto& d = list[0]["definition"];
  CHECK(d["argv"] == json({"sh", "bench.sh", "--variant", "{variant}"}));
  CHECK(d["shell"] == "");
  CHECK(d["cwd"] == "sub");
  CHECK(d["env"] == json::parse(R"([{"name":"OMP_NUM_THREADS","value":"2"}])"));
  CHECK(d["params"] == json::parse(R"([{"name":"variant","values":["naive","blocked"]}])"));
  CHECK(d["policy"]["repeat"] == 4);
  CHECK(d["policy"]["warmup"] == 1);
  CHECK(d["policy"]["adaptive"] == false);
  CHECK(d["timeout_s"] == 30.0);
  CHECK(d["primary"] == "gbs");
  CHECK(d["min_effect_pct"] == 2.0);
  REQUIRE(d["metrics"].size() == 2);
  CHECK(d["metrics"][0]["name"] == "time_ms");
  CHECK(d["metrics"][0]["unit"] == "ms");
  CHECK(d["metrics"][1]["name"] == "gbs");
  CHECK(d["metrics"][1]["better"] == "higher");

  const auto shown = bench_json(repo, "transpose");
  CHECK(shown["name"] == "transpose");
  REQUIRE(shown["revisions"].size() == 1);
  CHECK(shown["revisions"][0]["definition"] == d);
  CHECK(shown["revisions"][0]["created"].get<std::string>().size() == 20);

  const auto text = repo.ok({"bench", "show", "transpose"});
  CHECK_THAT(text, Catch::Contains("command:  sh bench.sh --variant {variant}"));
  CHECK_THAT(text, Catch::Contains("param:    variant=naive,blocked"));
  CHECK_THAT(text, Catch::Contains("env:      OMP_NUM_THREADS=2"));
  CHECK_THAT(text, Catch::Contains("repeats:  1 warmup, 4"));
  CHECK_THAT(text, Catch::Contains("gbs=kv:throughput") && Catch::Contains("higher is better] (primary)"));
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("transpose") && Catch::Contains("r1"));

  const auto again = repo.ej({"bench", "add", "transpose", "--", "true"});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::Contains("ej bench edit transpose"));
}

TEST_CASE("bench edit creates a new revision, and each run keeps the revision it used")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "1", "--metric", "v=regex:v=([0-9]+)", "--shell", "echo v=1"});
  repo.ok({"run", "b", "--quiet"});
  CHECK(repo.ok({"bench", "edit", "b", "--shell", "echo v=2"}) == "changed benchmark b (revision 2)\n");
  repo.ok({"run", "b", "--quiet"});

  CHECK(show_run(repo, 1)["revision"] == 1);
  CHECK(samples_of(show_run(repo, 1), "v") == std::vector<double>{1});
  CHECK(show_run(repo, 2)["revision"] == 2);
  CHECK(samples_of(show_run(repo, 2), "v") == std::vector<double>{2});

  const auto shown = bench_json(repo, "b");
  REQUIRE(shown["revisions"].size() == 2);
  CHECK(shown["revisions"][0]["definition"]["shell"] == "echo v=1");
  CHECK(shown["revisions"][1]["definition"]["shell"] == "echo v=2");
  // What edit did not touch is kept.
  CHECK(shown["revisions"][1]["definition"]["metrics"] == shown["revisions"][0]["definition"]["metrics"]);
  const auto text = repo.ok({"bench", "show", "b"});
  CHECK_THAT(text, Catch::Contains("revision 2") && Catch::Contains("revisions:") && Catch::Contains("r1") &&
                       Catch::Contains("sh -c echo v=1"));

  const auto unchanged = repo.ej({"bench", "edit", "b", "--shell", "echo v=2"});
  CHECK(unchanged.exit_code == 2);
  CHECK_THAT(unchanged.err, Catch::Contains("nothing changed"));
  const auto missing = repo.ej({"bench", "edit", "nope", "--repeat", "2"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no benchmark named 'nope'"));
}

TEST_CASE("bench add rejects a definition that cannot work, with the reason, and records nothing")
{
  EjRepo repo;
  struct Case {
    std::vector<std::string> args;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {{"--metric", "time_ms", "--", "true"}, "time_ms"},
      {{"--metric", "t=regex:([0-9.]+", "--", "true"}, "([0-9.]+"},
      {{"--metric", "t=regex:[0-9.]+", "--", "true"}, "capture group"},
      {{"--metric", "t=magic:x", "--", "true"}, "magic"},
      {{"--metric", "t=regex:t=([0-9]+)", "--primary", "nope", "--", "true"}, "--primary 'nope'"},
      {{"--metric", "t=regex:t=([0-9]+)"}, "no command"},
      {{"--unit", "other=ms", "--metric", "t=regex:t=([0-9]+)", "--", "true"}, "other"},
      {{"--param", "variant=", "--", "true"}, "empty value"},
      {{"--repeat", "0", "--", "true"}, "repeat"},
      {{"--shell", "true", "--", "true"}, "not both"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"bench", "add", "b"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto result = repo.ej(args);
    INFO("args: " << nlohmann::json(c.args).dump() << "\nstderr: " << result.err);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(c.reason));
  }
  CHECK(json::parse(repo.ok({"bench", "list", "--json"})).empty());
  CHECK(json::parse(repo.ok({"log", "--json"})).empty());
}

TEST_CASE(
    "parameter axes are substituted into the command and every combination runs, or only the chosen ones")
{
  EjRepo repo;
  repo.ok({"bench", "add", "grid", "--repeat", "1", "--param", "variant=a,b", "--param", "size=1,2",
           "--metric", "v=regex:v=([0-9]+)", "--shell",
           "echo {variant}-{size}-{unknown} >> seen.txt; echo v={size}"});
  repo.ok({"run", "grid", "--quiet"});
  CHECK(file_lines(repo.path() / "seen.txt") ==
        std::vector<std::string>{"a-1-{unknown}", "a-2-{unknown}", "b-1-{unknown}", "b-2-{unknown}"});
  const auto run = show_run(repo, 1);
  CHECK(run["params"] == json::parse(R"({"size":["1","2"],"variant":["a","b"]})"));
  CHECK(samples_of(run, "v", "size=2,variant=b") == std::vector<double>{2});
  CHECK(samples_of(run, "v", "size=1,variant=a") == std::vector<double>{1});

  std::filesystem::remove(repo.path() / "seen.txt");
  repo.ok({"run", "grid", "--quiet", "--param", "variant=b", "--param", "size=2,1"});
  CHECK(file_lines(repo.path() / "seen.txt") == std::vector<std::string>{"b-2-{unknown}", "b-1-{unknown}"});
  CHECK(show_run(repo, 2)["params"] == json::parse(R"({"size":["2","1"],"variant":["b"]})"));

  const auto unknown = repo.ej({"run", "grid", "--param", "colour=red"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no parameter axis 'colour'"));
  const auto bad_value = repo.ej({"run", "grid", "--param", "variant=c"});
  INFO(bad_value.err);
  CHECK(bad_value.exit_code == 2);
  CHECK(json::parse(repo.ok({"runs", "--json"})).size() == 2);
}

TEST_CASE("the benchmark's --env and ej run --env reach the child, which runs in the --cwd directory")
{
  EjRepo repo;
  std::filesystem::create_directories(repo.path() / "sub" / "a");
  write_text(repo.path() / "sub" / "a" / "bench.sh",
             "pwd > ../../where.txt\necho \"$BENCH_VAR $RUN_VAR\" > ../../env.txt\n");
  repo.ok({"bench", "add", "e", "--repeat", "1", "--param", "dir=a", "--cwd", "sub/{dir}", "--env",
           "BENCH_VAR=from-bench-{dir}", "--", "sh", "bench.sh"});
  repo.ok({"run", "e", "--quiet", "--env", "RUN_VAR=from-run"});
  CHECK(read_text(repo.path() / "env.txt") == "from-bench-a from-run\n");
  const auto where = file_lines(repo.path() / "where.txt");
  REQUIRE(where.size() == 1);
  CHECK(std::filesystem::equivalent(where[0], repo.path() / "sub" / "a"));
}

TEST_CASE("a fixed repeat count runs the warmups first and does not count them as samples")
{
  EjRepo repo;
  repo.ok({"bench", "add", "r", "--repeat", "3", "--warmup", "2", "--metric", "n=regex:n=([0-9]+)", "--shell",
           "echo x >> count.txt; echo n=$(wc -l < count.txt)"});
  repo.ok({"run", "r", "--quiet"});
  CHECK(file_lines(repo.path() / "count.txt").size() == 5);
  const auto run = show_run(repo, 1);
  CHECK(samples_of(run, "n") == std::vector<double>{3, 4, 5});
  REQUIRE(run["repeats"].size() == 5);
  CHECK(run["repeats"][0]["warmup"] == true);
  CHECK(run["repeats"][1]["warmup"] == true);
  CHECK(measured_repeats(run) == 3);
  CHECK(samples_of(run, "wall_s").size() == 3);

  // ej run --repeat overrides the count; the warmups still come first.
  std::filesystem::remove(repo.path() / "count.txt");
  repo.ok({"run", "r", "--quiet", "--repeat", "1"});
  CHECK(samples_of(show_run(repo, 2), "n") == std::vector<double>{3});
  CHECK(repo.ej({"run", "r", "--repeat", "0"}).exit_code == 2);
}

TEST_CASE("an adaptive policy stops a stable benchmark at its minimum repeats")
{
  EjRepo repo;
  repo.ok({"bench", "add", "stable", "--warmup", "1", "--min-repeats", "3", "--max-repeats", "20",
           "--max-noise", "5", "--metric", "v=regex:v=([0-9]+)", "--shell", "echo v=7"});
  const auto shown = repo.ok({"bench", "show", "stable"});
  CHECK_THAT(shown, Catch::Contains("3..20 until noise < 5%"));
  CHECK_THAT(shown, Catch::Contains("v=regex:v=([0-9]+) [lower is better] (primary)"));
  repo.ok({"run", "stable", "--quiet"});
  const auto run = show_run(repo, 1);
  CHECK(measured_repeats(run) == 3);
  CHECK(samples_of(run, "v") == std::vector<double>{7, 7, 7});
  CHECK(run["status"] == "finished");
}

TEST_CASE(
    "an adaptive policy whose noise target is never met runs to its maximum, and a budget stops it sooner")
{
  EjRepo repo;
  // n grows every repeat, so its noise never falls under 1%.
  repo.ok({"bench", "add", "noisy", "--min-repeats", "2", "--max-repeats", "6", "--max-noise", "1",
           "--metric", "n=regex:n=([0-9]+)", "--shell", "echo x >> count.txt; echo n=$(wc -l < count.txt)"});
  repo.ok({"run", "noisy", "--quiet"});
  CHECK(measured_repeats(show_run(repo, 1)) == 6);

  repo.ok({"bench", "add", "slow", "--min-repeats", "2", "--max-repeats", "40", "--budget", "0.6", "--shell",
           "sleep 0.2"});
  repo.ok({"run", "slow", "--quiet"});
  const auto run = show_run(repo, 2);
  CHECK(run["status"] == "finished");
  // Each repeat takes at least 0.2 s, so a 0.6 s budget allows three at most (at least one).
  CHECK(measured_repeats(run) >= 1);
  CHECK(measured_repeats(run) <= 3);
}

TEST_CASE("regex, kv, json and json-from-a-file extractors read their metrics through ej run")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo 'time_ms=1.25'\n"
                                       "echo 'throughput: 42.5 GB/s' >&2\n"
                                       "echo '{\"a\": {\"b\": [1, 2, 3]}}' > out.json\n");
  repo.ok({"bench", "add", "multi", "--repeat", "2", "--metric", "t=regex:time_ms=([0-9.]+)", "--unit",
           "t=ms", "--metric", "gbs=kv:stderr:throughput", "--metric", "list=json:/a/b@out.json", "--", "sh",
           "bench.sh"});
  repo.ok({"run", "multi", "--quiet"});
  auto run = show_run(repo, 1);
  CHECK(run["status"] == "finished");
  CHECK(samples_of(run, "t") == std::vector<double>{1.25, 1.25});
  CHECK(samples_of(run, "gbs") == std::vector<double>{42.5, 42.5});
  CHECK(samples_of(run, "list") == std::vector<double>{1, 2, 3, 1, 2, 3});
  for (const auto& series : run["series"]) {
    if (series["metric"] == "gbs") {
      CHECK(series["unit"] == "GB/s");
    }
    if (series["metric"] == "t") {
      CHECK(series["unit"] == "ms");
      CHECK(series["summary"]["median"] == 1.25);
    }
  }

  repo.ok({"bench", "add", "doc", "--repeat", "1", "--metric", "mean=json:results.0.mean", "--shell",
           R"(echo '{"results": [{"mean": 0.5}]}')"});
  repo.ok({"run", "doc", "--quiet"});
  CHECK(samples_of(show_run(repo, 2), "mean") == std::vector<double>{0.5});
}

TEST_CASE("gbench, hyperfine and nvbench extractors read the native JSON of those tools through ej run")
{
  const auto fixtures = fixtures_dir();
  for (const auto* name :
       {"gbench_fib_googlecpp_output.json", "hyperfine_3em_results.json", "nvbench_axes_ref.json"}) {
    INFO("fixture " << name);
    REQUIRE(std::filesystem::is_regular_file(fixtures / name));
  }
  EjRepo repo;
  const auto copy = [&](const std::string& name) {
    return "cp '" + (fixtures / name).string() + "' out.json";
  };
  // Outputs recorded elsewhere: their times are not those of the repeat that copies them.
  repo.ok({"bench", "add", "gb", "--repeat", "1", "--metric", "fib=gbench:fib_10@out.json", "--shell",
           copy("gbench_fib_googlecpp_output.json"), "--no-check-times"});
  repo.ok({"bench", "add", "hf", "--repeat", "1", "--metric", "t=hyperfine:0@out.json", "--shell",
           copy("hyperfine_3em_results.json"), "--no-check-times"});
  repo.ok({"bench", "add", "nv", "--repeat", "1", "--metric", "gpu=nvbench:@out.json", "--shell",
           copy("nvbench_axes_ref.json"), "--no-check-times"});
  repo.ok({"run", "gb", "--quiet"});
  repo.ok({"run", "hf", "--quiet"});
  repo.ok({"run", "nv", "--quiet"});

  const auto gb = samples_of(show_run(repo, 1), "fib");
  REQUIRE(gb.size() == 1);
  CHECK(gb[0] == Approx(214.98980114547953));
  const auto hf = samples_of(show_run(repo, 2), "t");
  REQUIRE(hf.size() == 20);
  CHECK(hf[0] == Approx(2.4772243683400004));
  const auto nv = show_run(repo, 3);
  CHECK(nv["status"] == "finished");
  std::set<std::string> keys;
  for (const auto& series : nv["series"]) {
    if (series["metric"] == "gpu") {
      keys.insert(series["key"].get<std::string>());
      CHECK(series["unit"] == "s");
    }
  }
  CHECK(keys.size() > 1);
}

TEST_CASE("ej runs filters by benchmark and attempt, and its JSON carries samples and summaries")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first idea", "--plan", "p"});
  repo.ok({"bench", "add", "a", "--repeat", "2", "--metric", "v=regex:v=([0-9]+)", "--shell", "echo v=3"});
  repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "true"});
  CHECK_THAT(repo.ok({"runs"}), Catch::Contains("no runs yet"));
  repo.ok({"run", "a", "--quiet", "--attempt", "1", "--label", "with attempt"});
  repo.ok({"run", "b", "--quiet"});
  repo.ok({"run", "a", "--quiet"});

  const auto all = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(all.size() == 3);
  CHECK(all[0]["number"] == 3); // newest first
  const auto only_a = json::parse(repo.ok({"runs", "--bench", "a", "--json"}));
  REQUIRE(only_a.size() == 2);
  CHECK(only_a[0]["bench"] == "a");
  CHECK(only_a[1]["bench"] == "a");
  const auto of_attempt = json::parse(repo.ok({"runs", "--attempt", "1", "--json"}));
  REQUIRE(of_attempt.size() == 1);
  CHECK(of_attempt[0]["number"] == 1);
  CHECK(of_attempt[0]["attempt"] == 1);
  CHECK(of_attempt[0]["label"] == "with attempt");
  CHECK(of_attempt[0]["status"] == "finished");
  CHECK(of_attempt[0]["git"]["commit"].get<std::string>().size() == 40);
  for (const auto& series : of_attempt[0]["series"]) {
    if (series["metric"] == "v") {
      CHECK(series["samples"] == json({3.0, 3.0}));
      CHECK(series["summary"]["n"] == 2);
      CHECK(series["summary"]["median"] == 3.0);
    }
  }
  CHECK(json::parse(repo.ok({"runs", "-n", "1", "--json"})).size() == 1);

  const auto text = repo.ok({"runs", "--bench", "a"});
  CHECK_THAT(text, Catch::Contains("run #3") && Catch::Contains("run #1") && Catch::Contains("attempt #1"));
  CHECK_THAT(text, !Catch::Contains("run #2"));
  CHECK(repo.ej({"run", "a", "--attempt", "9"}).exit_code == 1);
  CHECK(json::parse(repo.ok({"runs", "--json"})).size() == 3);
}

TEST_CASE("ej show run --output shows the captured stdout and stderr of the last repeat")
{
  EjRepo repo;
  repo.ok({"bench", "add", "talk", "--repeat", "2", "--shell",
           "echo x >> count.txt; echo \"out $(wc -l < count.txt)\"; echo 'err line' >&2"});
  const auto live = repo.ok({"run", "talk"});
  CHECK_THAT(live, Catch::Contains("out 1") && Catch::Contains("out 2")); // shown live without --quiet
  const auto text = repo.ok({"show", "run", "1", "--output"});
  CHECK_THAT(text, Catch::Contains("--- stdout of the last repeat ---\nout 2\n"));
  CHECK_THAT(text, Catch::Contains("--- stderr of the last repeat ---\nerr line\n"));
  const auto run = show_run(repo, 1, true);
  CHECK(run["stdout"] == "out 2\n");
  CHECK(run["stderr"] == "err line\n");
  CHECK(run["outputs"]["stdout_bytes"] == 6);
  CHECK(run["outputs"]["stdout_cut_bytes"] == 0);
  CHECK(repo.ej({"show", "run", "7"}).exit_code == 1);
}

TEST_CASE("with stderr not a terminal, ej run prints no progress line")
{
  EjRepo repo;
  repo.ok({"bench", "add", "p", "--repeat", "3", "--metric", "v=regex:v=([0-9]+)", "--shell", "echo v=1"});
  const auto result = repo.ej({"run", "p", "--quiet"});
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("run #1 of p"));
  CHECK_THAT(result.err, !Catch::Contains("repeat 1/3") && !Catch::Contains("eta") && !Catch::Contains("\r"));
  CHECK_THAT(result.out, Catch::Contains("run #1 p finished: 3 repeat(s)"));
}

TEST_CASE(
    "a --shell command gets a parameter's value unquoted, as documented, and '{AXIS}' keeps it one word")
{
  EjRepo repo;
  repo.ok({"bench", "add", "words", "--repeat", "1", "--param", "v=a b", "--shell",
           "printf '[%s]' {v}; printf ' ' ; printf '[%s]' '{v}'"});
  repo.ok({"run", "words", "--quiet"});
  CHECK(show_run(repo, 1, true)["stdout"] == "[a][b] [a b]");
  const auto docs = read_text(std::filesystem::path(EJ_SOURCE_DIR) / "docs" / "benchmarks.md");
  CHECK_THAT(docs, Catch::Contains("**as it is, unquoted**"));
}
