#pragma once

// Extractors for JSON output: the generic path extractor, and the parsing every JSON
// extractor shares (nvbench, gbench and hyperfine live in extract_tools.h).

#include "measure/extract.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace ej::measure {

// The JSON document in a program's output. Log lines before it are skipped (it may start on
// any line that opens with '{' or '['), text after it is ignored. Throws ej::Error naming the
// line and column of the first mistake and what to do.
nlohmann::json parse_json_output(const MetricSpec& spec, std::string_view text);

// The value at spec.arg (JSON Pointer or dotted path): a number, a numeric string, or an array
// of them.
std::vector<ExtractedValue> extract_json_path(const MetricSpec& spec, const nlohmann::json& document);

// A JSON value as a finite number (numbers and numeric strings); throws ej::Error naming the
// metric and the text otherwise. `where` says which value, for the message.
double json_number(const MetricSpec& spec, const nlohmann::json& value, std::string_view where);

} // namespace ej::measure
