#include "support/listing_timings.h"

#include "support/command.h"
#include "support/temp_dir.h"

#include <string>
#include <vector>

namespace ej::test {

void add_git_history(const std::filesystem::path& repo, int commits)
{
  for (int c = 0; c < commits; ++c) {
    write_text(repo / "file.txt", std::to_string(c));
    git(repo, {"add", "file.txt"});
    git(repo, {"commit", "-q", "-m", "change " + std::to_string(c)});
  }
}

Timing print_listing_timings(const std::filesystem::path& repo, const std::string& ej, int attempt,
                             int rounds)
{
  const auto id = std::to_string(attempt);
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
      {"git log -n 50 (reference)", {"git", "log", "-n", "50"}},
      {"ej log -n 50", {ej, "log", "-n", "50"}},
      {"ej log -n 50 --json", {ej, "log", "-n", "50", "--json"}},
      {"ej show " + id, {ej, "show", id}},
      {"ej why " + id, {ej, "why", id}}};
  std::vector<std::vector<std::string>> argvs;
  for (const auto& command : commands) {
    argvs.push_back(command.second);
  }
  const auto timings = time_interleaved(argvs, repo, rounds);
  print_timing(commands[0].first, timings[0], 0, 0);
  for (std::size_t i = 1; i < commands.size(); ++i) {
    print_ratio(commands[i].first, timings[i], "git log -n 50", timings[0], 1.5);
  }
  return timings[0];
}

} // namespace ej::test
