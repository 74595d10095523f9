#pragma once

#include <string>
#include <string_view>

namespace ej::util {

// Lower-case hex SHA-256 of the bytes: the address of content-addressed blobs.
std::string sha256_hex(std::string_view data);

} // namespace ej::util
