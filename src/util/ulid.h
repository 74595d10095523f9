#pragma once

#include <cstdint>
#include <string>

namespace ej::util {

// A ULID: 48-bit millisecond time + 80 random bits, Crockford base32, 26 characters.
std::string make_ulid(std::int64_t ms);

} // namespace ej::util
