#pragma once

#include <cstddef>
#include <string_view>

namespace ej::util {

// How deeply JSON text nests arrays and objects, read without parsing it (brackets inside strings
// do not count), stopping as soon as it passes limit: a parser, and every recursive walk of the
// value it builds, then never meets text deeper than the caller allows. Malformed text is measured
// as far as it goes; the parser refuses it afterwards.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

} // namespace ej::util
