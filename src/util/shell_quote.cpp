#include "util/shell_quote.h"

namespace ej::util {

std::string shell_quote(std::string_view word)
{
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string shell_join(const std::vector<std::string>& words)
{
  std::string out;
  for (const auto& word : words) {
    if (!out.empty()) {
      out += ' ';
    }
    out += shell_quote(word);
  }
  return out;
}

} // namespace ej::util
