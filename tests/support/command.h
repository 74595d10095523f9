#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ej::test {

struct CommandResult {
  int exit_code = -1; // -1 when killed by a signal
  int signal = 0;
  long peak_rss_kb = 0; // of the process and its waited-for children (wait4 rusage)
  std::string out;
  std::string err;
};

struct CommandOptions {
  std::filesystem::path cwd;
  std::map<std::string, std::string> env; // added to (or replacing in) the current environment
  std::string input;                      // written to stdin
};

// Runs argv (no shell) and waits for it; output is captured through files so any size works.
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options = {});

// Starts argv in the background (output discarded); returns its pid.
int start_command(const std::vector<std::string>& argv, const CommandOptions& options = {});
// Waits for a process started with start_command; returns its exit code, or 128+signal.
int wait_command(int pid);

// Runs the built ej binary with arguments, in a directory.
CommandResult run_ej(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env = {});

// A fresh git repository with one commit (user name/email set locally), for end-to-end tests.
void make_git_repo(const std::filesystem::path& dir);
// git -C dir args..., failing the test when git fails.
std::string git(const std::filesystem::path& dir, const std::vector<std::string>& args);

} // namespace ej::test
