#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ej::util {

// Lower-case hex SHA-256 of the bytes: the address of content-addressed blobs.
std::string sha256_hex(std::string_view data);

// The SHA-256 of a file's bytes, read in pieces (a file of gigabytes is never held whole); nullopt
// when it cannot be read.
std::optional<std::string> sha256_file(const std::filesystem::path& path);

} // namespace ej::util
