#include "util/csv.h"

#include "util/strings.h"

namespace ej::util {

std::string csv_field(std::string_view text)
{
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(text);
  }
  return double_quoted(text);
}

std::string csv_line(const std::vector<std::string>& fields)
{
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    out += csv_field(fields[i]);
  }
  return out + "\n";
}

} // namespace ej::util
