#pragma once

#include "util/unique_fd.h"

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

// Starting a process that outlives whoever started it: a session of its own (no controlling
// terminal, so closing the terminal sends it nothing; killing the caller's process group does not
// reach it), stdin from /dev/null, stdout and stderr appended to a log file.
namespace ej::run {

struct DetachedProcess {
  pid_t pid = -1;
  // The read end of a pipe whose write end the process has as descriptor `report_fd`: what it
  // writes there comes back to the starter, and end of file says it closed it (or ended).
  util::UniqueFd report;
};

// argv[0] is a path (no PATH look-up). Throws ej::Error when it cannot be started.
DetachedProcess start_detached(const std::vector<std::string>& argv, const std::filesystem::path& log,
                               const std::vector<std::pair<std::string, std::string>>& env, int report_fd);

// This program's own path (/proc/self/exe) and arguments (/proc/self/cmdline).
std::filesystem::path own_executable();
std::vector<std::string> own_arguments();

} // namespace ej::run
