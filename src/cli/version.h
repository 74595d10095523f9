#pragma once

#include <string>

namespace ej::cli {

// "ej 0.1.0 (commit 1a2b3c4d5e6f, dirty)": the version and the git commit the binary was built
// from, written by the build into generated/build_info.cpp. Cheap: no journal, no libgit2.
std::string version_text();

// The version, the commit and the binary's build ID: what tells two builds apart, even two of one
// commit with different uncommitted changes (the verdict lines a build keeps are its own). Empty
// when the binary has no build ID.
std::string build_identity();

} // namespace ej::cli
