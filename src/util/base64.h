#pragma once

#include <optional>
#include <string>
#include <string_view>

// Standard base64 (RFC 4648, with padding), through nettle.
namespace ej::util {

std::string base64_encode(std::string_view bytes);
// nullopt when text is not base64.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace ej::util
