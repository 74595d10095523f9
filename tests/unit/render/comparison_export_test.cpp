#include "render/comparison_export.h"

#include <catch2/catch.hpp>

using namespace ej;

TEST_CASE("the comparison markdown is a table under a line naming both sides, its cells escaped, notes after")
{
  render::ComparisonTable table{"r5", "#12", "decode", "improved", {}, "", {}, {}};
  table.rows.push_back({"tok_s [batch=8]", "89.5 tok/s", "92.6 tok/s", "+3.5% (1.03x faster)",
                        "[+2.9%, +4.1%]", "improved, Mann-Whitney p=0.008"});
  table.rows.push_back({"a|b", "1 ms", "1 ms", "0%", "", "no change, 2 vs 2"});
  const std::string lines =
      "**r5** (reference) vs **#12** (candidate), benchmark decode: improved\n\n"
      "| series | reference | candidate | change | interval | outcome |\n"
      "|---|---:|---:|---:|---|---|\n"
      "| tok_s \\[batch=8\\] | 89.5 tok/s | 92.6 tok/s | +3.5% (1.03x faster) | [+2.9%, +4.1%] | "
      "improved, Mann-Whitney p=0.008 |\n"
      "| a\\|b | 1 ms | 1 ms | 0% |  | no change, 2 vs 2 |\n";
  CHECK(render::comparison_markdown(table) == lines);
  table.crossover = "wins below batch=16";
  table.warnings = {"*sequential* runs"};
  table.env_changes = {"CUDA driver: 12.8 -> 13.0"};
  CHECK(render::comparison_markdown(table) == lines + "\n- crossover: wins below batch=16\n"
                                                      "- warning: \\*sequential\\* runs\n"
                                                      "- environment: CUDA driver: 12.8 -> 13.0\n");
}

TEST_CASE("the comparison CSV takes the columns from each series' JSON: strings as they are, numbers exact, "
          "null empty")
{
  const nlohmann::json series = {
      {"metric", "tok_s"},         {"params", "batch=8"},        {"key", "a,b"},
      {"unit", "tok/s"},           {"reference_median", 89.5},   {"candidate_median", 92.6},
      {"n_reference", 5},          {"n_candidate", 5},           {"change_pct", 3.4636871508379885},
      {"change_low_pct", nullptr}, {"change_high_pct", nullptr}, {"ratio", 1.0346},
      {"shift", nullptr},          {"p_value", 0.0079},          {"outcome", "improved"},
      {"basis", "Mann-Whitney"},   {"validity", "valid"},        {"extra", "not a column"}};
  CHECK(render::comparison_csv({series}) ==
        "metric,params,key,unit,reference_median,candidate_median,n_reference,n_candidate,change_pct,"
        "change_low_pct,change_high_pct,ratio,shift,p_value,outcome,basis,validity\n"
        "tok_s,batch=8,\"a,b\",tok/"
        "s,89.5,92.6,5,5,3.4636871508379885,,,1.0346,,0.0079,improved,Mann-Whitney,valid\n");
}
