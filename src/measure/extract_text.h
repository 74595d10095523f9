#pragma once

// Extractors for text output: regex and kv (see metric_spec.h for the grammar).

#include "measure/extract.h"

#include <memory>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace ej::measure {

// The pattern compiled as ej applies it (multi-line mode); throws ej::UsageError when it does
// not compile or has other than one capture group.
std::unique_ptr<re2::RE2> compile_metric_pattern(std::string_view metric, std::string_view pattern);

std::vector<ExtractedValue> extract_regex(const MetricSpec& spec, std::string_view text);
std::vector<ExtractedValue> extract_kv(const MetricSpec& spec, std::string_view text);

} // namespace ej::measure
