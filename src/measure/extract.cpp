#include "measure/extract.h"

#include "measure/extract_common.h"
#include "measure/extract_json.h"
#include "measure/extract_text.h"
#include "measure/extract_tools.h"

namespace ej::measure {

std::vector<ExtractedValue> extract(const MetricSpec& spec, const ExtractInput& input)
{
  const std::string text = detail::source_text(spec, input);
  switch (spec.kind) {
  case ExtractorKind::Regex:
    return extract_regex(spec, text);
  case ExtractorKind::Kv:
    return extract_kv(spec, text);
  case ExtractorKind::Json:
    return extract_json_path(spec, parse_json_output(spec, text));
  case ExtractorKind::Nvbench:
    return extract_nvbench(spec, parse_json_output(spec, text));
  case ExtractorKind::Gbench:
    return extract_gbench(spec, parse_json_output(spec, text));
  case ExtractorKind::Hyperfine:
    return extract_hyperfine(spec, parse_json_output(spec, text));
  }
  return {};
}

} // namespace ej::measure
