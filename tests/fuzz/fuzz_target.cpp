// libFuzzer target: a plan's --target (target.h).
#include "core/target.h"
#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto target = ej::core::parse_target(text);
    // What is accepted is stored as its string form and read back from it.
    const auto again = ej::core::parse_target(ej::core::to_string(target));
    (void)ej::core::meets(again, target.value);
  } catch (const ej::Error&) {
    // refused with a usage message
  }
  return 0;
}
