// libFuzzer target: region markers (regions.h) in a document on disk, merged with a rendering.
#include "render/regions.h"
#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The input split in two: the document on disk and the freshly rendered one.
  const auto half = text.find('\0');
  const auto existing = text.substr(0, half);
  const auto rendered = half == std::string_view::npos ? text : text.substr(half + 1);
  try {
    (void)ej::render::parse_regions(existing);
    (void)ej::render::merge_document(existing, rendered, {}, true);
    (void)ej::render::merge_document(std::nullopt, rendered, {}, false);
    (void)ej::render::document_up_to_date(existing, rendered);
  } catch (const ej::Error&) {
    // malformed markers, reported with their line
  }
  return 0;
}
