#include "git/repository.h"

#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

// Where a git work tree and its repository are, found as git finds them, without libgit2: a command
// that only reads the journal does not pay for libgit2's initialisation (it parses the system's CA
// certificates). As git does: GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR are honoured, a `.git` file
// ("gitdir: ...", a linked worktree or a submodule) is followed, a linked worktree's `commondir`
// names the shared repository, core.bare and core.worktree are read from its config, and the walk
// up stops at GIT_CEILING_DIRECTORIES and at a file system boundary (unless
// GIT_DISCOVERY_ACROSS_FILESYSTEM).
namespace ej::git {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> environment(const char* name)
{
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::optional<std::string>(value) : std::nullopt;
}

// git's spelling of a boolean.
bool is_true(std::string_view value)
{
  const auto lower = util::to_lower(util::trim(value));
  return lower == "true" || lower == "yes" || lower == "on" || lower == "1";
}

fs::path resolved(const fs::path& base, const fs::path& path)
{
  const auto absolute = path.is_relative() ? base / path : path;
  std::error_code ec;
  auto canonical = fs::canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

// The first line of a small file git keeps (`.git`, `commondir`), or nullopt when there is none.
std::optional<std::string> first_line_of(const fs::path& file)
{
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return std::nullopt;
  }
  const auto text = util::read_file(file);
  if (!text) {
    return std::nullopt;
  }
  return std::string(util::trim(text->substr(0, text->find('\n'))));
}

// The repository a `.git` file names ("gitdir: PATH", relative to the file's directory).
fs::path follow_gitfile(const fs::path& file)
{
  const auto line = first_line_of(file).value_or("");
  constexpr std::string_view prefix = "gitdir:";
  if (line.compare(0, prefix.size(), prefix) != 0) {
    throw Error(
        "{} is not a git directory nor a .git file naming one (\"gitdir: PATH\"); repair or remove it",
        file.string());
  }
  return resolved(file.parent_path(), std::string(util::trim(std::string_view(line).substr(prefix.size()))));
}

// A linked worktree's git directory names the repository it shares in `commondir`.
fs::path common_dir_of(const fs::path& git_dir)
{
  if (const auto common = environment("GIT_COMMON_DIR")) {
    return resolved(fs::current_path(), *common);
  }
  if (const auto common = first_line_of(git_dir / "commondir")) {
    return resolved(git_dir, *common);
  }
  return git_dir;
}

// git's test: a HEAD, and the objects and refs of the shared repository.
bool is_git_directory(const fs::path& git_dir)
{
  std::error_code ec;
  const auto common = common_dir_of(git_dir);
  return fs::exists(fs::symlink_status(git_dir / "HEAD", ec)) &&
         (environment("GIT_OBJECT_DIRECTORY") || fs::is_directory(common / "objects", ec)) &&
         fs::is_directory(common / "refs", ec);
}

struct CoreSettings {
  bool bare = false;
  std::optional<std::string> worktree;
};

// core.bare and core.worktree of a repository's config (the rest of git's config syntax matters
// not here: comments, other sections, subsections).
CoreSettings read_core_settings(const fs::path& common_dir)
{
  CoreSettings settings;
  const auto text = util::read_file(common_dir / "config");
  if (!text) {
    return settings;
  }
  bool in_core = false;
  for (const auto& raw : util::lines(*text)) {
    const auto line = util::trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') {
      continue;
    }
    if (line.front() == '[') {
      const auto end = line.find_first_of("] \t\"");
      in_core = util::to_lower(line.substr(1, end == std::string_view::npos ? end : end - 1)) == "core" &&
                end != std::string_view::npos && line[end] == ']';
      continue;
    }
    if (!in_core) {
      continue;
    }
    const auto equals = line.find('=');
    const auto key = util::to_lower(util::trim(line.substr(0, equals)));
    auto value =
        equals == std::string_view::npos ? std::string_view("true") : util::trim(line.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (key == "bare") {
      settings.bare = is_true(value);
    } else if (key == "worktree") {
      settings.worktree = std::string(value);
    }
  }
  return settings;
}

// The work tree of a repository found at git_dir; top is where git would take it to be.
std::optional<RepositoryLocation> located(const fs::path& git_dir, const fs::path& top)
{
  const auto common = common_dir_of(git_dir);
  fs::path work_tree = top;
  if (const auto explicit_tree = environment("GIT_WORK_TREE")) {
    work_tree = resolved(fs::current_path(), *explicit_tree);
  } else if (std::error_code ec; fs::equivalent(git_dir, common, ec)) {
    // A linked worktree ignores the shared config's core.bare and core.worktree, as git does.
    const auto settings = read_core_settings(common);
    if (settings.worktree) {
      work_tree = resolved(git_dir, *settings.worktree);
    } else if (settings.bare) {
      return std::nullopt;
    }
  }
  return RepositoryLocation{resolved(fs::current_path(), work_tree), resolved(fs::current_path(), common),
                            resolved(fs::current_path(), git_dir)};
}

std::vector<fs::path> ceiling_directories()
{
  std::vector<fs::path> ceilings;
  for (const auto& entry : util::split(environment("GIT_CEILING_DIRECTORIES").value_or(""), ':')) {
    if (!entry.empty() && entry.front() == '/') {
      ceilings.push_back(resolved("/", entry));
    }
  }
  return ceilings;
}

std::optional<dev_t> device_of(const fs::path& dir)
{
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return info.st_dev;
}

} // namespace

std::optional<RepositoryLocation> find_repository(const fs::path& start)
{
  const auto from = resolved(fs::current_path(), start);
  if (const auto git_dir_variable = environment("GIT_DIR")) {
    auto git_dir = resolved(fs::current_path(), *git_dir_variable);
    std::error_code ec;
    if (fs::is_regular_file(git_dir, ec)) {
      git_dir = follow_gitfile(git_dir);
    }
    if (!is_git_directory(git_dir)) {
      throw Error("GIT_DIR={} is not a git repository; unset GIT_DIR or point it at one", *git_dir_variable);
    }
    return located(git_dir, from); // without GIT_WORK_TREE or core.worktree, here is the top
  }
  const auto ceilings = ceiling_directories();
  const bool across_file_systems = is_true(environment("GIT_DISCOVERY_ACROSS_FILESYSTEM").value_or(""));
  auto dir = from;
  const auto start_device = device_of(dir);
  for (;;) {
    const auto dot_git = dir / ".git";
    std::error_code ec;
    const auto status = fs::status(dot_git, ec);
    if (fs::is_regular_file(status)) {
      const auto git_dir = follow_gitfile(dot_git);
      if (!is_git_directory(git_dir)) {
        throw Error("{} names {}, which is not a git repository (a linked worktree whose repository moved? "
                    "run 'git worktree repair' from the repository)",
                    dot_git.string(), git_dir.string());
      }
      return located(git_dir, dir);
    }
    if (fs::is_directory(status) && is_git_directory(dot_git)) {
      return located(resolved(dir, ".git"), dir);
    }
    if (is_git_directory(dir)) {
      return std::nullopt; // a bare repository, or inside a .git directory: no work tree
    }
    const auto parent = dir.parent_path();
    if (parent == dir || std::find(ceilings.begin(), ceilings.end(), parent) != ceilings.end()) {
      return std::nullopt;
    }
    if (!across_file_systems && device_of(parent) != start_device) {
      return std::nullopt;
    }
    dir = parent;
  }
}

std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start)
{
  auto location = find_repository(start);
  return location ? std::optional(location->work_tree) : std::nullopt;
}

} // namespace ej::git
