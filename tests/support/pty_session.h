#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ej::test {

struct PtyResult {
  int exit_code = -1; // -1 when killed by a signal or still running at the deadline
  std::string output; // stdout and stderr as the terminal received them ("\r\n" line ends)
};

// Runs argv with stdin, stdout and stderr on a new pseudo-terminal (80x24, its controlling
// terminal), as a user at a terminal would, and reads everything it writes there. The environment
// is only PATH, HOME and TERM=xterm plus env (an empty value removes a variable), so that the
// caller's PAGER, NO_COLOR or LESS cannot change what the test sees.
PtyResult run_in_pty(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env = {});

} // namespace ej::test
