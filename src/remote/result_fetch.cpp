#include "remote/result_fetch.h"

#include "measure/result_files.h"
#include "util/error.h"
#include "util/shell_quote.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace ej::remote {

namespace {

std::filesystem::path make_local_root()
{
  const char* tmp = std::getenv("TMPDIR");
  auto pattern =
      (std::filesystem::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "ej-results-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error("cannot create a directory for the result files of the run in {}: {}", pattern,
                std::strerror(errno));
  }
  return pattern;
}

std::string quoted_list(const std::vector<std::string>& words)
{
  std::string out;
  for (const auto& word : words) {
    out += ' ';
    out += util::shell_quote(word);
  }
  return out;
}

// A name the host printed, relative and inside the working directory, or nothing.
bool safe_name(const std::filesystem::path& name)
{
  if (name.empty() || name.is_absolute()) {
    return false;
  }
  for (const auto& part : name.lexically_normal()) {
    if (part == "..") {
      return false;
    }
  }
  return true;
}

} // namespace

void check_fetchable(std::string_view metric, std::string_view file)
{
  const std::filesystem::path path{std::string(file)};
  if (!safe_name(path)) {
    throw UsageError(
        "metric '{}' reads the file {}, outside the benchmark's working directory: on another host "
        "ej brings back only result files under it (give a path relative to the working "
        "directory, or read the value from the benchmark's output)",
        metric, file);
  }
}

ResultFetch::ResultFetch(std::vector<std::string> spec_files, std::string run_label, std::string state_dir,
                         std::filesystem::path remote_root)
    : m_run_label(std::move(run_label)), m_state_dir(std::move(state_dir)),
      m_remote_root(std::move(remote_root)), m_local_root(make_local_root())
{
  for (auto& file : spec_files) {
    (measure::is_glob(file) ? m_globs : m_plain).push_back(std::move(file));
  }
}

ResultFetch::~ResultFetch()
{
  std::error_code ignored; // a temporary directory: nothing recorded lives there
  std::filesystem::remove_all(m_local_root, ignored);
}

std::filesystem::path ResultFetch::local_path(const std::filesystem::path& remote) const
{
  const auto relative = remote.lexically_normal().lexically_relative(m_remote_root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") {
    return m_local_root / "elsewhere" / remote.relative_path();
  }
  return (m_local_root / relative).lexically_normal();
}

std::string ResultFetch::before_repeat(const std::filesystem::path& remote_cwd) const
{
  const auto state = util::shell_quote(m_state_dir);
  std::string line = fmt::format(
      "( cd {} 2>/dev/null || exit 0; S={}; mkdir -p \"$S\" || exit 1", // no cwd: the wrapper says so
      util::shell_quote(remote_cwd.string()), state);
  if (!m_plain.empty()) {
    // The first repeat of the run moves aside what is there (a seen-flag per path); later ones
    // remove what the previous one wrote.
    line += fmt::format(
        "; for f in{0}; do k=\"$S/$(printf '%s' \"$PWD/$f\" | cksum | cut -d' ' -f1)\"; "
        "if [ -e \"$k\" ]; then rm -f -- \"$f\"; else "
        "if [ -e \"$f\" ] || [ -L \"$f\" ]; then a=\"$f.before-{1}\"; n=2; "
        "while [ -e \"$a\" ] || [ -L \"$a\" ]; do a=\"$f.before-{1}.$n\"; n=$((n+1)); done; "
        "mv -- \"$f\" \"$a\" || {{ echo \"ej-result-files: '$f' is there from before this run and cannot be "
        "moved aside to '$a' on $(hostname): move or remove it, then run again\" >&2; exit 1; }}; "
        "printf \"ej-moved '%s' was there before the run: moved aside to '%s' (kept)\\n\" \"$f\" \"$a\" >> "
        "\"$S/moved\"; fi; : > \"$k\"; fi; done",
        quoted_list(m_plain), m_run_label);
  }
  line += "; touch \"$S/started\" )";
  return line;
}

std::string ResultFetch::fetch_command(const std::filesystem::path& remote_cwd) const
{
  std::string line =
      fmt::format("cd {} 2>/dev/null || exit 0; S={}; "
                  "if [ -f \"$S/moved\" ]; then cat \"$S/moved\"; rm -f \"$S/moved\"; fi; "
                  "e() {{ printf 'ej-file %s %s\\n' \"$(wc -c < \"$1\" | tr -d ' ')\" \"$1\" && "
                  "cat -- \"$1\"; }}",
                  util::shell_quote(remote_cwd.string()), util::shell_quote(m_state_dir));
  if (!m_plain.empty()) {
    line += fmt::format("; for f in{}; do if [ -f \"$f\" ]; then e \"$f\"; fi; done", quoted_list(m_plain));
  }
  if (!m_globs.empty()) {
    // Unquoted under an empty IFS: a pattern is expanded as a glob and nothing else.
    line += fmt::format(
        "; IFS=; for g in{}; do n=$(ls -td -- $g 2>/dev/null | head -n 1); "
        "if [ -n \"$n\" ] && [ -f \"$n\" ] && [ -n \"$(find \"$n\" -prune -newer \"$S/started\")\" ]; "
        "then e \"$n\"; fi; done",
        quoted_list(m_globs));
  }
  return line + "; exit 0";
}

std::vector<std::string> ResultFetch::unpack(std::string_view printed,
                                             const std::filesystem::path& remote_cwd) const
{
  std::error_code ec;
  std::filesystem::remove_all(m_local_root, ec);
  const auto into = local_path(remote_cwd);
  std::filesystem::create_directories(into, ec);
  if (ec) {
    throw Error("cannot create {} for the run's result files: {}", into.string(), ec.message());
  }
  std::vector<std::string> moved;
  const auto malformed = [&](std::string_view what) {
    return Error("the host sent the result files in a form ej does not read ({}): run again, and report it "
                 "if it persists",
                 what);
  };
  while (!printed.empty()) {
    const auto end = printed.find('\n');
    if (end == std::string_view::npos) {
      throw malformed("a line without its end");
    }
    const auto line = printed.substr(0, end);
    printed.remove_prefix(end + 1);
    if (line.rfind("ej-moved ", 0) == 0) {
      moved.emplace_back(line.substr(9));
      continue;
    }
    if (line.rfind("ej-file ", 0) != 0) {
      throw malformed(fmt::format("'{}'", line.substr(0, 80)));
    }
    const auto rest = line.substr(8);
    const auto space = rest.find(' ');
    std::uint64_t size = 0;
    if (space == std::string_view::npos ||
        std::from_chars(rest.data(), rest.data() + space, size).ec != std::errc() || size > printed.size()) {
      throw malformed(fmt::format("'{}'", line.substr(0, 80)));
    }
    const std::filesystem::path name{std::string(rest.substr(space + 1))};
    if (!safe_name(name)) {
      throw malformed(fmt::format("the name '{}'", name.string()));
    }
    const auto path = into / name.lexically_normal();
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(printed.data(), static_cast<std::streamsize>(size));
    if (!out.flush()) {
      throw Error("cannot write {} (a result file brought back from the host): {}", path.string(),
                  std::strerror(errno));
    }
    printed.remove_prefix(size);
  }
  return moved;
}

std::string ResultFetch::cleanup_command() const
{
  return "rm -rf " + util::shell_quote(m_state_dir);
}

} // namespace ej::remote
