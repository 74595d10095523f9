#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

// Running a program on a real pseudo-terminal, as a user's shell would: its stdin, stdout and
// stderr are the terminal, so isatty() is true and what it draws (\r, escape sequences) is
// recorded byte for byte.
namespace ej::test {

struct PtyResult {
  int exit_code = -1; // -1 when killed by a signal
  std::string output; // stdout and stderr as the terminal received them (the terminal adds \r to \n)
};

PtyResult run_in_pty(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env = {}, unsigned short columns = 120);

// The built ej on a terminal.
PtyResult run_ej_in_pty(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env = {});

} // namespace ej::test
