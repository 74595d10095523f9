#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ej::util {

// The whole file, or nullopt when it does not exist. Other failures throw ej::Error.
std::optional<std::string> read_file(const std::filesystem::path& path);
// Writes through a temporary file and rename, so readers never see half a file.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

} // namespace ej::util
