#include "measure/result_files.h"

#include "util/error.h"

#include <fmt/format.h>
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace ej::measure {

namespace {

bool is_inside(const std::filesystem::path& path, const std::filesystem::path& root)
{
  const auto relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

// Follows symlinks as far as the path exists, so that a link inside the tree to a file outside
// it counts as outside.
std::filesystem::path resolved(const std::filesystem::path& path)
{
  std::error_code ec;
  auto out = std::filesystem::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : out;
}

bool newer_or_same(const timespec& a, const timespec& b)
{
  return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec >= b.tv_nsec);
}

// glob(3), freed whatever happens.
class GlobMatches {
public:
  explicit GlobMatches(const std::string& pattern)
  {
    m_status = ::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &m_glob);
  }
  ~GlobMatches() { ::globfree(&m_glob); }
  GlobMatches(const GlobMatches&) = delete;
  GlobMatches& operator=(const GlobMatches&) = delete;

  std::vector<std::string> paths() const
  {
    std::vector<std::string> out;
    if (m_status == 0) {
      for (std::size_t i = 0; i < m_glob.gl_pathc; ++i) {
        out.emplace_back(m_glob.gl_pathv[i]);
      }
    }
    return out;
  }

private:
  glob_t m_glob{};
  int m_status = 0;
};

} // namespace

bool is_glob(std::string_view file)
{
  return file.find_first_of("*?[") != std::string_view::npos;
}

ResultFiles::ResultFiles(const std::vector<MetricSpec>& metrics, std::filesystem::path work_tree,
                         std::string run_label)
    : m_root(resolved(work_tree)), m_run_label(std::move(run_label))
{
  for (const auto& metric : metrics) {
    if (!metric.file.empty() &&
        std::find(m_spec_files.begin(), m_spec_files.end(), metric.file) == m_spec_files.end()) {
      m_spec_files.push_back(metric.file);
    }
  }
  clock_gettime(CLOCK_REALTIME_COARSE, &m_repeat_started);
}

ResultFiles::File& ResultFiles::file_for(const std::string& spec_file)
{
  const auto path = (m_cwd / spec_file).lexically_normal();
  for (auto& file : m_files) {
    if (file.path == path) {
      return file;
    }
  }
  File file;
  file.path = path;
  file.managed = !is_glob(spec_file) && is_inside(resolved(path), m_root);
  return m_files.emplace_back(std::move(file));
}

std::vector<std::string> ResultFiles::before_repeat(const std::filesystem::path& cwd)
{
  // Once per directory, not per repeat: normalizing a path is 2-3 us, between two repeats.
  if (cwd.native() != m_cwd_given.native()) {
    m_cwd_given = cwd;
    m_cwd = cwd.lexically_normal();
  }
  std::vector<std::string> moved;
  for (const auto& spec_file : m_spec_files) {
    auto& file = file_for(spec_file);
    std::error_code ec;
    if (!file.managed) {
      continue;
    }
    if (file.ours) {
      std::filesystem::remove(file.path, ec); // the previous repeat's, read already
      continue;
    }
    file.ours = true; // from now on, whatever is there was written by this run
    if (!std::filesystem::exists(std::filesystem::symlink_status(file.path, ec))) {
      continue;
    }
    auto aside = file.path;
    aside += ".before-" + m_run_label;
    for (int n = 2; std::filesystem::exists(std::filesystem::symlink_status(aside, ec)); ++n) {
      aside = file.path;
      aside += fmt::format(".before-{}.{}", m_run_label, n);
    }
    std::filesystem::rename(file.path, aside, ec);
    if (ec) {
      throw Error(
          "'{}' is there from before this run, and ej cannot move it aside to '{}' ({}): move or remove it, "
          "then run again",
          file.path.string(), aside.string(), ec.message());
    }
    moved.push_back(fmt::format("'{}' was there before the run: moved aside to '{}' (kept)", spec_file,
                                aside.lexically_relative(m_cwd).string()));
  }
  clock_gettime(CLOCK_REALTIME_COARSE, &m_repeat_started);
  return moved;
}

std::optional<TextSource> ResultFiles::open(const MetricSpec& spec)
{
  m_last_choice.clear();
  const File& file = file_for(spec.file);
  if (file.managed) {
    return TextSource::open(file.path);
  }
  // Not ej's to remove: the newest match written during this repeat.
  std::vector<std::string> candidates;
  if (is_glob(spec.file)) {
    candidates = GlobMatches(file.path.string()).paths();
  } else {
    candidates.push_back(file.path.string());
  }
  std::optional<std::string> newest;
  timespec newest_time{};
  std::size_t fresh = 0;
  std::size_t older = 0;
  for (const auto& candidate : candidates) {
    struct stat info {};
    if (::stat(candidate.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
      continue;
    }
    if (!newer_or_same(info.st_mtim, m_repeat_started)) {
      ++older;
      continue;
    }
    ++fresh;
    // Newest first; of files written in the same tick, the last name, so the choice is stable.
    const bool same_time =
        info.st_mtim.tv_sec == newest_time.tv_sec && info.st_mtim.tv_nsec == newest_time.tv_nsec;
    if (!newest || (same_time ? candidate > *newest : newer_or_same(info.st_mtim, newest_time))) {
      newest = candidate;
      newest_time = info.st_mtim;
    }
  }
  if (!newest) {
    if (older > 0) {
      throw Error(
          "metric '{}': no file matching '{}' was written during this repeat ({} older one{} left as they "
          "are): check that the program writes it on every run",
          spec.name, spec.file, older, older == 1 ? " is" : "s are");
    }
    return std::nullopt;
  }
  if (is_glob(spec.file)) {
    m_last_choice = fmt::format("'{}' (the newest of {} file{} matching '{}' written during the repeat)",
                                std::filesystem::path(*newest).lexically_relative(m_cwd).string(), fresh,
                                fresh == 1 ? "" : "s", spec.file);
  }
  return TextSource::open(*newest);
}

} // namespace ej::measure
