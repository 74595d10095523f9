#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ej::util {

// The whole file, or nullopt when it does not exist. Other failures throw ej::Error.
std::optional<std::string> read_file(const std::filesystem::path& path);
// Writes through a temporary file and rename, so readers never see half a file.
// The temporary file is "<path>.ej-tmp-<pid>", beside the target.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);
// Whether a path names one of write_file_atomic's temporary files: a moment of another process's
// write (a render in a work tree), never part of what a user made.
bool is_atomic_write_temporary(std::string_view path);

} // namespace ej::util
