#pragma once

#include <optional>
#include <string>

// Long output through a pager, as git does it.
namespace ej::cli {

// --no-pager (a global option).
void disable_pager();

// The pager command: EJ_PAGER, else PAGER, else "less"; nullopt when it is empty or "cat".
std::optional<std::string> pager_command();

// Sends the rest of stdout through the pager when stdout is a terminal (TERM=dumb aside) and
// --no-pager was not given. less gets LESS=FRX unless LESS is set: it quits at once when the text
// fits on the screen, passes colours and leaves the text on the screen. ej waits for the pager
// when it exits.
void page_output();

} // namespace ej::cli
