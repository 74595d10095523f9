#include "measure/result_files.h"

#include "measure/metric_spec.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

using namespace ej::measure;
using ej::test::read_text;
using ej::test::write_text;

namespace {

std::string read_all(const std::optional<TextSource>& source)
{
  REQUIRE(source);
  std::string storage;
  return std::string(source->whole(storage));
}

// File times come from a coarse clock: a file written "before" must be older by a tick.
void let_the_clock_tick()
{
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
}

} // namespace

TEST_CASE("a result file that was there before the run is moved aside and kept, never deleted")
{
  ej::test::TempDir dir;
  write_text(dir / "history.jsonl", "{\"mine\": 1}\n");
  const std::vector<MetricSpec> metrics{parse_metric_spec("t=json:t@history.jsonl")};
  ResultFiles files(metrics, dir.path(), "run-7");

  const auto moved = files.before_repeat(dir.path());
  REQUIRE(moved.size() == 1);
  CHECK_THAT(moved[0], Catch::Contains("'history.jsonl'") && Catch::Contains("history.jsonl.before-run-7") &&
                           Catch::Contains("kept"));
  CHECK(read_text(dir / "history.jsonl.before-run-7") == "{\"mine\": 1}\n");
  CHECK_FALSE(std::filesystem::exists(dir / "history.jsonl"));
  CHECK_FALSE(files.open(metrics[0])); // the repeat wrote nothing

  write_text(dir / "history.jsonl", "{\"t\": 1}\n"); // the first repeat's
  CHECK(read_all(files.open(metrics[0])) == "{\"t\": 1}\n");
  // Before the next repeat, the run's own file goes; the user's stays aside.
  CHECK(files.before_repeat(dir.path()).empty());
  CHECK_FALSE(std::filesystem::exists(dir / "history.jsonl"));
  CHECK(read_text(dir / "history.jsonl.before-run-7") == "{\"mine\": 1}\n");

  // A second run finds the name taken and picks another.
  write_text(dir / "history.jsonl", "{\"t\": 2}\n");
  ResultFiles again(metrics, dir.path(), "run-7");
  CHECK_THAT(again.before_repeat(dir.path())[0], Catch::Contains("history.jsonl.before-run-7.2"));
  CHECK(read_text(dir / "history.jsonl.before-run-7.2") == "{\"t\": 2}\n");
}

TEST_CASE("a glob reads the newest match written during the repeat and says which, it touches nothing")
{
  ej::test::TempDir dir;
  write_text(dir / "results" / "vllm-old.json", "{\"t\": 0}");
  const std::vector<MetricSpec> metrics{parse_metric_spec("t=json:t@results/vllm-*.json")};
  ResultFiles files(metrics, dir.path(), "run-1");
  let_the_clock_tick();
  CHECK(files.before_repeat(dir.path()).empty());
  CHECK_THROWS_WITH(files.open(metrics[0]),
                    Catch::Contains("no file matching 'results/vllm-*.json' was written "
                                    "during this repeat") &&
                        Catch::Contains("1 older one is left"));
  write_text(dir / "results" / "vllm-a.json", "{\"t\": 1}");
  let_the_clock_tick();
  write_text(dir / "results" / "vllm-b.json", "{\"t\": 2}");
  CHECK(read_all(files.open(metrics[0])) == "{\"t\": 2}");
  CHECK_THAT(files.last_choice(),
             Catch::Contains("'results/vllm-b.json'") &&
                 Catch::Contains("the newest of 2 files matching 'results/vllm-*.json'"));
  let_the_clock_tick();
  files.before_repeat(dir.path());
  CHECK(std::filesystem::exists(dir / "results" / "vllm-old.json"));
  CHECK(std::filesystem::exists(dir / "results" / "vllm-b.json"));
}

TEST_CASE("a result path that leads outside the work tree through a symlink is never moved or removed")
{
  ej::test::TempDir outside;
  ej::test::TempDir tree;
  write_text(outside / "precious.json", "{\"t\": 9}");
  std::filesystem::create_directory_symlink(outside.path(), tree / "out");
  const std::vector<MetricSpec> metrics{parse_metric_spec("t=json:t@out/precious.json")};
  ResultFiles files(metrics, tree.path(), "run-1");
  let_the_clock_tick();
  CHECK(files.before_repeat(tree.path()).empty());
  CHECK(read_text(outside / "precious.json") == "{\"t\": 9}");
  // Read only when the repeat wrote it.
  CHECK_THROWS_WITH(files.open(metrics[0]), Catch::Contains("was written during this repeat"));
  write_text(outside / "precious.json", "{\"t\": 10}");
  CHECK(read_all(files.open(metrics[0])) == "{\"t\": 10}");
  files.before_repeat(tree.path());
  CHECK(read_text(outside / "precious.json") == "{\"t\": 10}");
}

TEST_CASE("a quoted result path with spaces is read as it is written")
{
  ej::test::TempDir dir;
  const std::vector<MetricSpec> metrics{
      parse_metric_spec("q=criterion:#mean@\"target/criterion/fib 20/new/estimates.json\"")};
  ResultFiles files(metrics, dir.path(), "run-1");
  files.before_repeat(dir.path());
  write_text(dir / "target/criterion/fib 20/new/estimates.json", "{}");
  CHECK(read_all(files.open(metrics[0])) == "{}");
}
