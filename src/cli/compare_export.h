#pragma once

#include "evidence/compare_sides.h"
#include "evidence/verdict_json.h"

#include <nlohmann/json.hpp>

#include <string>

// `ej compare --format markdown|csv|json`: the comparison worded as the other outputs word it, and
// laid out by render/comparison_export.h.
namespace ej::cli {

enum class CompareFormat { Text, Markdown, Csv, Json };

// "markdown", "csv", "json" (also "md", "text"); throws ej::UsageError on anything else.
CompareFormat parse_compare_format(const std::string& text);

// A GitHub table, one row per series, under a line naming both sides and the outcome decided;
// warnings and environment changes as a list after it.
std::string comparison_markdown(const evidence::Compared& compared);
// One row per series; the columns are fields of the JSON's "series" (docs/json.md).
std::string comparison_csv(const evidence::Compared& compared);

} // namespace ej::cli
