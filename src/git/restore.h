#pragma once

#include <filesystem>
#include <string>

namespace ej::git {

// Writes the tree of `commit` of the repository at repo_dir into dir (absent or empty), then
// applies patch there: the stored `git diff HEAD` and untracked files of an attempt or run, so
// that dir holds the exact code that was measured. Lines of the patch that are ej's comments
// ("# ...") are left out; the changes inside submodules are not restored (returned false).
// Throws ej::Error when the commit is not in the repository or the patch does not apply.
bool restore_code_state(const std::filesystem::path& repo_dir, const std::string& commit, const std::string& patch,
                        const std::filesystem::path& dir);

} // namespace ej::git
