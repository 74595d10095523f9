#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ej::util {

// A ULID: 48-bit millisecond time + 80 random bits, Crockford base32, 26 characters.
std::string make_ulid(std::int64_t ms);
// Whether text is a ULID as make_ulid writes them.
bool is_ulid(std::string_view text);

} // namespace ej::util
