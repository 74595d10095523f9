#pragma once

#include <string>
#include <string_view>
#include <vector>

// CSV as RFC 4180 writes it: a field with a comma, a quote or a line break is quoted, its quotes
// doubled; lines end with "\n", as hyperfine's --export-csv writes them.
namespace ej::util {

std::string csv_field(std::string_view text);
// The fields joined by commas, with a final newline.
std::string csv_line(const std::vector<std::string>& fields);

} // namespace ej::util
