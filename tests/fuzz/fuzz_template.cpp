// libFuzzer target: user templates (template_engine.h) over data shaped like a plan's.
#include "render/template_engine.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const auto document = nlohmann::json::parse(R"({
    "plan": {"title": "EAGLE-3", "goal": "verify < 15 ms", "target": "x < 15"},
    "has_attempts": true,
    "attempts": [
      {"number": 1, "title": "baseline", "status": "adopted", "median": 12.5, "tags": ["a", "b"],
       "notes": [{"text": "tried twice"}], "runs": [{"number": 1, "samples": [1, 2.5, 3]}]},
      {"number": 2, "title": "fusion", "status": "rejected", "median": null, "tags": [],
       "notes": [], "runs": []}
    ],
    "summary": {"adopted": 1, "rejected": 1},
    "empty": [],
    "flag": false
  })");
  ej::render::TemplateOptions options;
  options.partials.emplace("attempt", "- {{number}} {{title}}\n");
  options.max_output_bytes = 1 << 20; // low bounds keep every input fast
  options.max_tag_expansions = 200'000;
  options.strict = size > 0 && (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ej::render::render_template(text, document, "fuzz.mustache", options);
  } catch (const ej::Error&) {
    // a template error, named with its line
  }
  return 0;
}
