#pragma once

#include <optional>
#include <string_view>

namespace ej::util {

bool is_terminal(int fd);

// --color=auto|always|never. Auto: colours on a terminal only, never when NO_COLOR is set
// (https://no-color.org) or TERM=dumb; always and never are what the user said, NO_COLOR included.
enum class ColourMode { Auto, Always, Never };
std::optional<ColourMode> parse_colour_mode(std::string_view text);
// The process-wide mode (main sets it from --color before any command prints).
void set_colour_mode(ColourMode mode);
// Whether to colour what is written to fd, under the process-wide mode.
bool use_colour(int fd);
// TERM=dumb: a terminal that understands no escape sequences (Emacs' shell, some CI logs).
bool is_dumb_terminal();

} // namespace ej::util
