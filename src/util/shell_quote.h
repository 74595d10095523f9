#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ej::util {

// One word for a POSIX shell, whatever it holds: 'it'\''s'.
std::string shell_quote(std::string_view word);
// The words quoted and joined by spaces.
std::string shell_join(const std::vector<std::string>& words);

} // namespace ej::util
