#pragma once

#include "support/timing.h"

#include <filesystem>
#include <string>

namespace ej::test {

// The commands that list or show a few attempts, against `git log -n 50` on the same repository,
// interleaved in one run, each line with its ratio to git's (goal: at most 1.5x, however large the
// journal: nothing may scan all attempts to show a few). Returns git's timing, for other ratios.
// Commits to the repository until it has a history as long as the reference lists (git log -n 50
// on a repository of one commit would be no reference).
void add_git_history(const std::filesystem::path& repo, int commits);

Timing print_listing_timings(const std::filesystem::path& repo, const std::string& ej, int attempt,
                             int rounds);

} // namespace ej::test
