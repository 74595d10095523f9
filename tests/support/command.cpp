#include "support/command.h"

#include "support/temp_dir.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ej::test {

namespace {

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& extra)
{
  std::map<std::string, std::string> all;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string::npos) {
      all[text.substr(0, equals)] = text.substr(equals + 1);
    }
  }
  for (const auto& [key, value] : extra) {
    all[key] = value;
  }
  std::vector<std::string> out;
  for (const auto& [key, value] : all) {
    out.push_back(key + "=" + value);
  }
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings)
{
  std::vector<char*> out;
  for (auto& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

// Starts argv with stdin, stdout and stderr opened on the given files.
pid_t spawn_with(const std::vector<std::string>& argv, const CommandOptions& options, const char* in_path,
                 const char* out_path, const char* err_path)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in_path, O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!options.cwd.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());
  }
  auto args = argv;
  auto env = merged_environment(options.env);
  auto c_args = c_strings(args);
  auto c_env = c_strings(env);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, c_args[0], &actions, nullptr, c_args.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return pid;
}

} // namespace

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options)
{
  TempDir io("ej-cmd", false);
  const auto in_path = io / "in";
  const auto out_path = io / "out";
  const auto err_path = io / "err";
  write_text(in_path, options.input);

  const pid_t pid = spawn_with(argv, options, in_path.c_str(), out_path.c_str(), err_path.c_str());
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  CommandResult result;
  result.peak_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  return result;
}

int start_command(const std::vector<std::string>& argv, const CommandOptions& options)
{
  const pid_t pid = spawn_with(argv, options, "/dev/null", "/dev/null", "/dev/null");
  return pid;
}

int wait_command(int pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status);
  }
  return 128 + WTERMSIG(status);
}

CommandResult run_ej(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env)
{
  std::vector<std::string> argv{EJ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandOptions options;
  options.cwd = cwd;
  options.env = env;
  options.env.emplace("NO_COLOR", "1");
  return run_command(argv, options);
}

std::string git(const std::filesystem::path& dir, const std::vector<std::string>& args)
{
  std::vector<std::string> argv{"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto result = run_command(argv);
  if (result.exit_code != 0) {
    throw std::runtime_error("git " + (args.empty() ? std::string() : args.front()) + " failed (exit " + std::to_string(result.exit_code) + "): " + result.err + result.out);
  }
  return result.out;
}

void make_git_repo(const std::filesystem::path& dir)
{
  std::filesystem::create_directories(dir);
  git(dir, {"init", "-q", "-b", "main"});
  git(dir, {"config", "user.name", "ej test"});
  git(dir, {"config", "user.email", "ej-test@example.invalid"});
  write_text(dir / "README.md", "scratch repository\n");
  git(dir, {"add", "README.md"});
  git(dir, {"commit", "-q", "-m", "initial"});
}

} // namespace ej::test
