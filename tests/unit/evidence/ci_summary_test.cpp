// The summary ej ci prints and appends to $GITHUB_STEP_SUMMARY, and the gate's outcome.
#include "evidence/ci_summary.h"
#include "render/markdown_check.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace ej;
using measure::Outcome;

namespace {

evidence::PairedVerdict series(const std::string& metric, measure::Outcome outcome, double change,
                               const std::string& params = "{}")
{
  evidence::PairedVerdict v;
  v.params = params;
  v.metric = metric;
  v.unit = "ms";
  v.rounds = 8;
  v.estimate = std::log1p(change);
  v.low = std::log1p(change - 0.05);
  v.high = std::log1p(change + 0.05);
  v.outcome = outcome;
  // A decisive series is a discovery by any account; the others were not.
  v.p_value = outcome == Outcome::Improved || outcome == Outcome::Regressed ? 0.001 : 0.5;
  return v;
}

evidence::CiBench bench(const std::string& name, std::vector<evidence::PairedVerdict> all, int candidate)
{
  evidence::CiBench out;
  out.bench = name;
  out.stopped = core::SessionStop::Decisive;
  out.max_rounds = 20;
  evidence::InterleavedVerdict verdict;
  verdict.candidate = candidate;
  verdict.reference = candidate + 1;
  verdict.primary = "time_ms";
  verdict.min_effect_pct = 2;
  verdict.series = std::move(all);
  verdict.outcome = verdict.series.front().outcome;
  out.verdict = verdict;
  return out;
}

evidence::CiSummary summary_of(std::vector<evidence::CiBench> benches)
{
  evidence::CiSummary summary;
  summary.candidate = {"1111111111111111111111111111111111111111", "HEAD, branch feature", false};
  summary.reference = {"2222222222222222222222222222222222222222", "the merge base of HEAD and origin/main",
                       false};
  summary.benches = std::move(benches);
  return summary;
}

} // namespace

TEST_CASE("the gate fails on a decisive regression of a primary metric, not on another metric's")
{
  auto other_regressed = summary_of({bench(
      "decode", {series("wall_s", Outcome::Regressed, 2.0), series("time_ms", Outcome::NoChange, 0.0)}, 3)});
  other_regressed.benches[0].verdict->outcome = Outcome::NoChange;
  CHECK(evidence::ci_outcome(other_regressed) == evidence::CiOutcome::Passed);

  const auto regressed = summary_of({bench("decode", {series("time_ms", Outcome::Improved, -0.2)}, 3),
                                     bench("prefill",
                                           {series("time_ms", Outcome::Regressed, 2.0, R"({"n":"1"})"),
                                            series("time_ms", Outcome::Improved, -0.1, R"({"n":"2"})")},
                                           5)});
  CHECK(evidence::ci_outcome(regressed) == evidence::CiOutcome::Regressed);
  CHECK(evidence::regressed_benches(regressed) == std::vector<std::string>{"prefill"});

  auto failed = summary_of({bench("decode", {series("time_ms", Outcome::Inconclusive, 0.01)}, 3)});
  failed.benches.push_back(
      {"prefill", std::nullopt, "run #7 build-failed: make exited 2", core::SessionStop::Failed, 20});
  CHECK(evidence::ci_outcome(failed) == evidence::CiOutcome::Failed);
  CHECK(std::string(evidence::to_string(evidence::ci_outcome(failed))) == "failed");
}

TEST_CASE("the markdown summary names both sides, has a row per series, the warnings and how to reproduce")
{
  auto summary = summary_of(
      {bench("decode",
             {series("wall_s", Outcome::Regressed, 2.0), series("time_ms", Outcome::Regressed, 2.0)}, 3),
       bench("prefill", {series("time_ms", Outcome::Inconclusive, 0.01, R"({"n":"1"})")}, 5)});
  summary.benches[1].verdict->series[0].rounds_needed = 60;
  summary.benches[1].stopped = core::SessionStop::MaxRounds;
  const auto markdown = evidence::ci_markdown(summary);
  INFO(markdown);

  CHECK(render::parse_markdown_headings(markdown).front() == "ej ci: regression in `decode`");
  const auto paragraphs = render::parse_markdown_paragraphs(markdown);
  REQUIRE_FALSE(paragraphs.empty());
  CHECK(paragraphs.front() ==
        "Candidate `111111111111` (HEAD, branch feature) against `222222222222` (the merge "
        "base of HEAD and origin/main), measured interleaved in one session.");
  const auto tables = render::parse_markdown_tables(markdown);
  REQUIRE(tables.size() == 1);
  const auto& rows = tables.front();
  REQUIRE(rows.size() == 4); // the header and three series
  CHECK(rows[0] ==
        std::vector<std::string>{"benchmark", "metric", "at", "change", "interval", "outcome", "rounds"});
  // The primary metric's row comes first, and a regression it gates on stands out.
  CHECK(rows[1] == std::vector<std::string>{"decode", "time_ms (primary)", "", "+200.0%",
                                            "[+195.0%, +205.0%]", "regressed", "8"});
  CHECK(rows[2][1] == "wall_s");
  CHECK(rows[2][5] == "regressed");
  CHECK(rows[3] == std::vector<std::string>{"prefill", "time_ms (primary)", "n=1", "+1.0%", "[-4.0%, +6.0%]",
                                            "inconclusive", "8"});
  CHECK_THAT(markdown, Catch::Contains("| **regressed** |"));
  CHECK_THAT(markdown,
             Catch::Contains("- prefill time_ms (n=1): inconclusive after 8 rounds; a decision would "
                             "likely need about 60 rounds (--max-rounds); the gate does not fail on it"));
  CHECK_THAT(
      markdown,
      Catch::Contains("```sh\nej run decode --against 222222222222 --until-decisive --max-rounds "
                      "20\nej run prefill --against 222222222222 --until-decisive --max-rounds 20\n```"));
  CHECK_THAT(markdown, Catch::Contains("decode: run #3 against run #4, min effect 2%"));
  // Deterministic: the same verdicts give the same bytes, and the JSON says the same.
  CHECK(evidence::ci_markdown(summary) == markdown);
  const auto json = evidence::to_json(summary);
  CHECK(json["outcome"] == "regressed");
  CHECK(json["reference"]["short"] == "222222222222");
  CHECK(json["rows"].size() == 3);
  CHECK(json["rows"][0]["change"] == "+200.0%");
  CHECK(json["rows"][2]["outcome"] == "inconclusive");
  CHECK(json["benchmarks"][0]["regressed"] == true);
  CHECK(json["warnings"].size() == 1);
  CHECK(json["reproduce"].size() == 2);
}

TEST_CASE("a summary without a regression says so in its heading, a dirty candidate in a warning")
{
  auto summary = summary_of({bench("decode", {series("time_ms", Outcome::Improved, -0.3)}, 3)});
  summary.candidate.dirty = true;
  const auto markdown = evidence::ci_markdown(summary);
  CHECK(render::parse_markdown_headings(markdown).front() == "ej ci: no decisive regression");
  CHECK_THAT(markdown, Catch::Contains("with uncommitted changes"));
  CHECK(evidence::ci_warnings(summary).size() == 1);
}

TEST_CASE("under GitHub Actions the summary links the commits, their comparison and the workflow run")
{
  auto summary = summary_of({bench("decode", {series("time_ms", Outcome::Improved, -0.3)}, 3)});
  const auto plain = evidence::ci_markdown(summary);
  const auto plain_json = evidence::to_json(summary);

  summary.links = {"https://github.com/", "team/app", "4242"};
  const auto markdown = evidence::ci_markdown(summary);
  INFO(markdown);
  const auto paragraphs = render::parse_markdown_paragraphs(markdown);
  REQUIRE(paragraphs.size() >= 2);
  // The text a reader sees is the same; the commits are links now.
  CHECK(paragraphs[0] == render::parse_markdown_paragraphs(plain).front());
  CHECK_THAT(markdown, Catch::Contains("[`111111111111`](https://github.com/team/app/commit/"
                                       "1111111111111111111111111111111111111111)"));
  CHECK_THAT(markdown, Catch::Contains("[`222222222222`](https://github.com/team/app/commit/"
                                       "2222222222222222222222222222222222222222)"));
  CHECK_THAT(markdown, Catch::Contains("(https://github.com/team/app/compare/"
                                       "2222222222222222222222222222222222222222..."
                                       "1111111111111111111111111111111111111111)"));
  CHECK_THAT(markdown, Catch::Contains("[this workflow run](https://github.com/team/app/actions/runs/4242)"));
  const auto json = evidence::to_json(summary);
  CHECK(json["links"]["compare"] == "https://github.com/team/app/compare/"
                                    "2222222222222222222222222222222222222222..."
                                    "1111111111111111111111111111111111111111");
  CHECK(json["links"]["run"] == "https://github.com/team/app/actions/runs/4242");

  // Without a run id, no run link; without a repository, or with one a link cannot hold, no links.
  summary.links.run_id.clear();
  CHECK_THAT(evidence::ci_markdown(summary), !Catch::Contains("actions/runs"));
  CHECK_THAT(evidence::ci_markdown(summary), Catch::Contains("/compare/"));
  summary.links = {"https://github.com", "", "4242"};
  CHECK(evidence::ci_markdown(summary) == plain);
  CHECK(evidence::to_json(summary) == plain_json);
  summary.links = {"https://github.com", "team/app) [x](y", "4242"};
  CHECK(evidence::ci_markdown(summary) == plain);
}

TEST_CASE("the gate fails on a regressed combination only when it is a discovery across the primary series")
{
  // Two combinations: one regressed on its own at p = 0.04, the other unchanged at p = 0.5. Across the
  // two, Benjamini-Hochberg at 0.05 needs the smallest p at 0.025: no discovery, no failure.
  auto noise = series("time_ms", Outcome::Regressed, 0.03, R"({"n":"1"})");
  noise.p_value = 0.04;
  auto still = series("time_ms", Outcome::NoChange, 0.0, R"({"n":"2"})");
  const auto passed = summary_of({bench("decode", {noise, still}, 3)});
  CHECK(evidence::ci_outcome(passed) == evidence::CiOutcome::Passed);
  // At p = 0.01 it is a discovery (0.01 <= 0.025): the gate fails.
  noise.p_value = 0.01;
  const auto failed = summary_of({bench("decode", {noise, still}, 3)});
  CHECK(evidence::ci_outcome(failed) == evidence::CiOutcome::Regressed);
  CHECK(evidence::regressed_benches(failed) == std::vector<std::string>{"decode"});
}
