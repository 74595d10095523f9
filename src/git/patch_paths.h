#pragma once

#include <string>
#include <string_view>

namespace ej::git {

// `patch` with every `diff --git a/P b/P` line whose P holds a blank written with both paths quoted
// (`diff --git "a/P" "b/P"`), as git reads them too. libgit2 (1.5) splits an unquoted header at
// its first blank, and a file with no `---`/`+++` path to correct it (a new, deleted or binary file)
// then gets a broken name, so the patch would not apply. Other lines are kept as they are, and a
// patch already written so is returned unchanged; journals written before ej quoted them are read
// through it too.
std::string quote_blank_header_paths(std::string_view patch);

} // namespace ej::git
