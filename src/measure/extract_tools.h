#pragma once

// Extractors for the native JSON of benchmark tools (grammar in metric_spec.h).

#include "measure/extract.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace ej::measure {

// NVIDIA nvbench `--json`: one value per state of the selected benchmarks.
std::vector<ExtractedValue> extract_nvbench(const MetricSpec& spec, const nlohmann::json& document);
// Google Benchmark `--benchmark_format=json` / `--benchmark_out`: one value per row.
std::vector<ExtractedValue> extract_gbench(const MetricSpec& spec, const nlohmann::json& document);
// hyperfine `--export-json`: one value per entry of `times`.
std::vector<ExtractedValue> extract_hyperfine(const MetricSpec& spec, const nlohmann::json& document);

} // namespace ej::measure
