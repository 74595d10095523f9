#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

// A program on a pseudo-terminal that the test hangs up while it runs, as a dropped ssh session or
// a killed tmux pane does: the terminal's master side closes, and the program's writes to it fail
// with EIO from then on. Whether a SIGHUP comes too is the program's session's business (the
// kernel sends it to the session leader only).
namespace ej::test {

class PtyProcess {
public:
  // Starts argv as the session leader of a new terminal (80 columns), in cwd, with env added.
  PtyProcess(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
             const std::map<std::string, std::string>& env = {});
  ~PtyProcess(); // kills what is still running, and waits for it
  PtyProcess(const PtyProcess&) = delete;
  PtyProcess& operator=(const PtyProcess&) = delete;

  // Reads the terminal until text was written to it; false after `seconds` without it.
  bool wait_for_output(const std::string& text, double seconds);
  const std::string& output() const { return m_output; }
  // Closes the terminal's master side: the hang-up.
  void hang_up();
  // Waits for the program (the session leader) to end; its wait status.
  int wait();
  pid_t pid() const { return m_pid; }

private:
  pid_t m_pid = -1;
  int m_master = -1;
  std::string m_output;
  bool m_reaped = false;
};

} // namespace ej::test
