#include "render/run_exports.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

core::RunRecord run_record()
{
  core::RunRecord run;
  run.number = 7;
  run.bench = "decode";
  run.revision = 2;
  run.status = core::RunStatus::Finished;
  run.attempt = 3;
  run.label = "fused, take 2";
  run.started_ms = 1700000000000;
  run.ended_ms = 1700000060000;
  run.host = "node1";
  run.git.commit = "0123abcd";
  run.git.dirty = true;
  return run;
}

render::SeriesFigures tok_s()
{
  return {"tok_s", "batch=8", "", "tok/s", 3, 92.5, 0.5, 92.6, 92.0, 92.9, {92.0, 92.6, 92.9}};
}

} // namespace

TEST_CASE("the runs CSV has a row per series with its summary, and one with empty series columns for a run "
          "without")
{
  auto single = tok_s();
  single.metric = "wall_s";
  single.params = "";
  single.unit = "s";
  single.n = 1;
  single.stddev.reset();
  single.mean = single.median = single.min = single.max = 0.25;
  auto empty = run_record();
  empty.number = 8;
  empty.attempt.reset();
  empty.ended_ms = 0;
  empty.git.dirty = false;
  const auto csv = render::runs_csv({{run_record(), {tok_s(), single}}, {empty, {}}});
  const std::string head =
      "7,decode,2,finished,3,\"fused, take 2\",2023-11-14T22:13:20Z,2023-11-14T22:14:20Z,node1,"
      "0123abcd,true,";
  CHECK(csv ==
        "run,bench,revision,status,attempt,label,started,ended,host,commit,dirty,metric,params,key,unit,n,"
        "mean,stddev,median,min,max\n" +
            head + "tok_s,batch=8,,tok/s,3,92.5,0.5,92.6,92,92.9\n" + head +
            "wall_s,,,s,1,0.25,,0.25,0.25,0.25\n"
            "8,decode,2,finished,,\"fused, take 2\",2023-11-14T22:13:20Z,,node1,0123abcd,false,,,,,,,,,,\n");
}

TEST_CASE("the hyperfine export has hyperfine's fields per combination, ej's metrics and the run")
{
  render::HyperfineResult result;
  result.command = "./bench --batch 8";
  result.parameters = {{"batch", "8"}};
  result.wall = {"wall_s", "batch=8", "", "s", 2, 1.5, 0.7071, 1.5, 1.0, 2.0, {1.0, 2.0}};
  result.user = 1.25;
  result.system = 0.125;
  result.exit_codes = {0, 137};
  result.metrics = {tok_s()};
  auto lone = result;
  lone.wall.n = 1;
  lone.wall.stddev.reset();
  lone.metrics.clear();
  const auto json = render::hyperfine_json(run_record(), {result, lone}, 1);
  CHECK(json.at("schema") == 1);
  CHECK(json.at("ej") ==
        nlohmann::json{{"run", 7}, {"bench", "decode"}, {"revision", 2}, {"status", "finished"}});
  REQUIRE(json.at("results").size() == 2);
  const auto& first = json.at("results").at(0);
  CHECK(first.at("command") == "./bench --batch 8");
  CHECK(first.at("mean") == 1.5);
  CHECK(first.at("stddev") == 0.7071);
  CHECK(first.at("median") == 1.5);
  CHECK(first.at("min") == 1.0);
  CHECK(first.at("max") == 2.0);
  CHECK(first.at("times") == nlohmann::json{1.0, 2.0});
  CHECK(first.at("user") == 1.25);
  CHECK(first.at("system") == 0.125);
  CHECK(first.at("exit_codes") == nlohmann::json{0, 137});
  CHECK(first.at("parameters") == nlohmann::json{{"batch", "8"}});
  REQUIRE(first.at("metrics").size() == 1);
  CHECK(first.at("metrics").at(0) == nlohmann::json{{"metric", "tok_s"},
                                                    {"key", ""},
                                                    {"unit", "tok/s"},
                                                    {"values", {92.0, 92.6, 92.9}},
                                                    {"mean", 92.5},
                                                    {"stddev", 0.5},
                                                    {"median", 92.6},
                                                    {"min", 92.0},
                                                    {"max", 92.9}});
  CHECK(json.at("results").at(1).at("stddev").is_null()); // one repeat has no spread, as hyperfine says
  CHECK(json.at("results").at(1).at("metrics") == nlohmann::json::array());
}
