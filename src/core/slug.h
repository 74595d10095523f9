#pragma once

#include <string_view>

namespace ej::core {

// Plan slugs (and benchmark names) are lowercase letters, digits and single dashes, starting with a
// letter or digit: "eagle-fast-verify". Throws ej::UsageError saying what is wrong.
void validate_slug(std::string_view slug, std::string_view what);

} // namespace ej::core
