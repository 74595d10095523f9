// libFuzzer target: the --metric grammar (metric_spec.h), as `ej bench add` reads it.
#include "measure/metric_spec.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto spec = ej::measure::parse_metric_spec(text);
    ej::measure::validate_metric_spec(spec);
    // What is accepted is stored and read back: the stored forms must read back the same.
    const auto again = ej::measure::parse_metric_spec(ej::measure::to_spec_string(spec));
    (void)again;
    (void)ej::measure::checked_stored_spec(ej::core::metric_spec_from_json(ej::measure::to_json(spec)));
  } catch (const ej::Error&) {
    // a refused spec, with its message: what the user sees
  }
  return 0;
}
