#include "remote/host_check.h"

#include "remote/remote_environment.h"
#include "remote/ssh_session.h"
#include "util/shell_quote.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <map>

namespace ej::remote {

namespace {

// "1008 KiB", "3.4 MiB", "120.5 GiB": a small disk is not "0.0 GiB".
std::string size_text(double bytes)
{
  constexpr std::array<const char*, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= 1024.0 && unit + 1 < units.size()) {
    bytes /= 1024.0;
    ++unit;
  }
  return unit == 0 || bytes >= 100.0 ? fmt::format("{:.0f} {}", bytes, units[unit])
                                     : fmt::format("{:.1f} {}", bytes, units[unit]);
}

} // namespace

std::vector<HostFinding> check_host(const HostEntry& host)
{
  std::vector<HostFinding> findings;
  const auto start = util::monotonic_ns();
  SshSession session(host);
  const double connect_s = static_cast<double>(util::monotonic_ns() - start) / 1e9;
  findings.push_back({"reachable", true,
                      fmt::format("{} is {} (connected and prepared in {:.2f} s)",
                                  session.connection().destination(), session.hostname(), connect_s)});
  auto root = session.repo_dir("");
  root.pop_back(); // "<root>/" without the repository
  // Each section on its own: a missing tool is a finding, not a failed check. With the host's own
  // variables (ej host add --env): the nvcc a PATH there names is the toolkit its runs use.
  const auto script = export_lines(host.env) + fmt::format(R"sh(echo @@shell; echo "$0 ok"
echo @@tar; command -v tar
echo @@gpus; nvidia-smi -L 2>&1
nvcc=$(command -v nvcc 2>/dev/null || {{ [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }})
echo @@toolkit; [ -n "$nvcc" ] && "$nvcc" --version 2>/dev/null | grep release | sed "s|\$| ($nvcc)|"
echo @@disk; d={}; while [ ! -d "$d" ]; do d=$(dirname "$d"); done; df -Pk "$d" | tail -n 1
)sh",
                                                           util::shell_quote(root));
  const auto out = session.connection().run("sh -s", "check the host", script).out.text();
  std::map<std::string, std::string> parts;
  std::string* current = nullptr;
  for (const auto& line : util::lines(out)) {
    if (line.rfind("@@", 0) == 0) {
      current = &parts[line.substr(2)];
    } else if (current != nullptr) {
      *current += (current->empty() ? "" : "; ") + std::string(util::trim(line));
    }
  }
  findings.push_back(
      {"shell", !parts["shell"].empty(), parts["shell"].empty() ? "sh did not run" : "POSIX sh runs"});
  findings.push_back(
      {"tar", !parts["tar"].empty(),
       parts["tar"].empty() ? "no tar: ej ships the code with tar; install it there" : parts["tar"]});
  const bool gpus = parts["gpus"].find("GPU ") != std::string::npos;
  findings.push_back(
      {"gpus", gpus,
       gpus ? parts["gpus"]
            : "no NVIDIA GPU seen (nvidia-smi -L: " + util::first_line(parts["gpus"], 120) + ")"});
  findings.push_back(
      {"toolkit", !parts["toolkit"].empty(),
       parts["toolkit"].empty() ? "no nvcc in PATH or /usr/local/cuda/bin" : parts["toolkit"]});
  // df -Pk: "Filesystem 1024-blocks Used Available Capacity Mounted-on"
  const auto fields = util::split(parts["disk"], ' ');
  std::vector<std::string> words;
  for (const auto& field : fields) {
    if (!field.empty()) {
      words.push_back(field);
    }
  }
  if (words.size() >= 6) {
    const double free_kib = std::strtod(words[3].c_str(), nullptr);
    findings.push_back({"disk", free_kib >= 1024.0 * 1024.0,
                        fmt::format("{} free under {} ({} used on {})", size_text(free_kib * 1024.0), root,
                                    words[4], words[5])});
  } else {
    findings.push_back({"disk", false, "df said nothing about " + root});
  }
  return findings;
}

} // namespace ej::remote
