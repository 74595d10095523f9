#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// `ej compare --format markdown|csv`: the comparison to paste into a pull request, or to read with
// a spreadsheet. The words and figures are settled above (cli/compare_export.h); this lays them out.
namespace ej::render {

// One series of a comparison, each cell as it is shown.
struct ComparisonRow {
  std::string series; // "decode [variant=fused]"
  std::string reference;
  std::string candidate;
  std::string change; // "-58.6% (2.42x faster)"
  std::string interval;
  std::string outcome; // "improved, Mann-Whitney p=0.004"
};

struct ComparisonTable {
  std::string reference; // how each side was named: "r5", "#12"
  std::string candidate;
  std::string bench;
  std::string outcome; // of every series together
  std::vector<ComparisonRow> rows;
  std::string crossover; // "" when none
  std::vector<std::string> warnings;
  std::vector<std::string> env_changes;
};

// A GitHub table, one row per series, under a line naming both sides; the crossover, warnings and
// environment changes as a list after it. Every text is escaped for markdown.
std::string comparison_markdown(const ComparisonTable& table);

// One row per series: the fields of each series' JSON (docs/json.md) that the columns name,
// strings as they are, numbers in their shortest exact text, null empty.
std::string comparison_csv(const std::vector<nlohmann::json>& series);

} // namespace ej::render
