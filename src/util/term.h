#pragma once

namespace ej::util {

bool is_terminal(int fd);
// Colours only on a terminal and never when NO_COLOR is set (https://no-color.org).
bool use_colour(int fd);

} // namespace ej::util
