// ej mcp against the command line on a journal of 10,000 attempts across 20 plans (about 100,000
// events), in a scratch git repository, interleaved in one run:
// - a `log` call (limit 50) to a server started once and called many times, against the process
//   `ej log -n 50 --json` (goal: at most 1.5x);
// - the start-up of `ej mcp` until its answer to initialize is read (goal: under 20 ms), with
//   `ej --version` and `git --version` measured beside it;
// - `ej run --detach` until it returns (the run goes on in the background; goal: under 1 s), with
//   `ej --version` beside it.
// Prints figures; asserts nothing.
//
//   perf_mcp_bench [--attempts N] [--rounds N] [--keep]
#include "generated_journal.h"
#include "support/command.h"
#include "support/listing_timings.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

using namespace ej;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// `ej mcp` as a client starts it: stdin and stdout pipes, stderr discarded.
class McpServer {
public:
  McpServer(const std::string& ej, const std::filesystem::path& cwd)
  {
    int to[2];
    int from[2];
    if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    std::vector<char*> argv{const_cast<char*>(ej.c_str()), const_cast<char*>("mcp"), nullptr};
    const int rc = posix_spawn(&m_pid, ej.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(to[0]);
    ::close(from[1]);
    m_to = to[1];
    m_from = from[0];
    if (rc != 0) {
      throw std::runtime_error(std::strerror(rc));
    }
  }
  McpServer(const McpServer&) = delete;
  McpServer& operator=(const McpServer&) = delete;
  ~McpServer()
  {
    ::close(m_to); // the session ends
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    ::close(m_from);
  }

  // Sends one message and returns the line that answers it.
  std::string call(const nlohmann::json& message)
  {
    const auto line = message.dump() + "\n";
    if (::write(m_to, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      throw std::runtime_error("cannot write to ej mcp");
    }
    while (true) {
      if (const auto end = m_buffer.find('\n'); end != std::string::npos) {
        auto answer = m_buffer.substr(0, end);
        m_buffer.erase(0, end + 1);
        return answer;
      }
      char chunk[65536];
      const auto got = ::read(m_from, chunk, sizeof chunk);
      if (got <= 0) {
        throw std::runtime_error("ej mcp ended");
      }
      m_buffer.append(chunk, static_cast<std::size_t>(got));
    }
  }

  // The server's peak resident memory so far (VmHWM).
  long peak_rss_kb() const
  {
    std::FILE* status = std::fopen(("/proc/" + std::to_string(m_pid) + "/status").c_str(), "r");
    long kb = 0;
    char line[256];
    while (status != nullptr && std::fgets(line, sizeof line, status) != nullptr) {
      if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1) {
        break;
      }
    }
    if (status != nullptr) {
      std::fclose(status);
    }
    return kb;
  }

  std::string initialize()
  {
    return call({{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-11-25"},
                   {"capabilities", nlohmann::json::object()},
                   {"clientInfo", {{"name", "perf"}, {"version", "1"}}}}}});
  }

private:
  pid_t m_pid = -1;
  int m_to = -1;
  int m_from = -1;
  std::string m_buffer;
};

test::Timing summary_of(std::vector<double> ms)
{
  std::sort(ms.begin(), ms.end());
  test::Timing timing;
  const auto n = ms.size();
  timing.median_ms = n % 2 == 1 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  timing.min_ms = ms.front();
  timing.max_ms = ms.back();
  return timing;
}

double run_ms(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
              long* peak_rss_kb = nullptr)
{
  const auto measured = test::measure_once(argv, cwd);
  if (peak_rss_kb != nullptr) {
    *peak_rss_kb = std::max(*peak_rss_kb, measured.peak_rss_kb);
  }
  return measured.seconds * 1000;
}

} // namespace

int main(int argc, char** argv)
{
  int attempts = 10000;
  int rounds = 41;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--attempts") == 0 && i + 1 < argc) {
      attempts = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    }
  }
  test::TempDir dir("ej-perf-mcp");
  test::make_git_repo(dir.path());
  test::add_git_history(dir.path(), 60);
  const auto events = perf::generate_journal(dir / ".git" / "ej", attempts);
  std::printf("journal: %d attempts, 20 plans, %lld events\n", attempts, static_cast<long long>(events));
  std::printf("machine: %u cores; each figure is the median of %d interleaved rounds of the real binary\n\n",
              std::thread::hardware_concurrency(), rounds);
  const std::string ej = EJ_BINARY;

  // A log call to a server started once, against the process that prints the same object.
  {
    McpServer server(ej, dir.path());
    server.initialize();
    const nlohmann::json log_call = {{"jsonrpc", "2.0"},
                                     {"id", 1},
                                     {"method", "tools/call"},
                                     {"params", {{"name", "log"}, {"arguments", {{"limit", 50}}}}}};
    const auto first_start = Clock::now();
    const auto first = nlohmann::json::parse(server.call(log_call));
    const double first_ms = ms_since(first_start);
    if (first["result"]["structuredContent"]["attempts"].size() != 50) {
      std::printf("the log call did not list 50 attempts: %s\n", first.dump().substr(0, 400).c_str());
      return 1;
    }
    std::vector<double> cli;
    std::vector<double> mcp;
    long cli_rss_kb = 0;
    for (int round = 0; round < rounds; ++round) {
      cli.push_back(run_ms({ej, "log", "-n", "50", "--json"}, dir.path(), &cli_rss_kb));
      const auto start = Clock::now();
      server.call(log_call);
      mcp.push_back(ms_since(start));
    }
    auto reference = summary_of(cli);
    reference.peak_rss_kb = cli_rss_kb;
    auto served = summary_of(mcp);
    served.peak_rss_kb = server.peak_rss_kb(); // the server's, over every call
    test::print_timing("ej log -n 50 --json (reference)", reference, 0, 0);
    test::print_ratio("MCP log (limit 50), one server", served, "ej log -n 50 --json", reference, 1.5);
    std::printf("  (the server's first log call, which finds the repository: %.1f ms)\n\n", first_ms);
  }

  // Start-up: from the spawn until the answer to initialize is read.
  {
    std::vector<double> startup;
    std::vector<double> version;
    std::vector<double> git;
    for (int round = 0; round < rounds; ++round) {
      const auto start = Clock::now();
      {
        McpServer server(ej, dir.path());
        server.initialize();
        startup.push_back(ms_since(start));
      }
      version.push_back(run_ms({ej, "--version"}, dir.path()));
      git.push_back(run_ms({"git", "--version"}, dir.path()));
    }
    const auto reference = summary_of(git);
    test::print_timing("git --version (reference)", reference, 0, 0);
    test::print_ratio("ej --version", summary_of(version), "git --version", reference, 0);
    const auto started = summary_of(startup);
    test::print_ratio("ej mcp until initialize answered", started, "git --version", reference, 0);
    std::printf("  goal < 20 ms: %s\n\n", started.median_ms < 20 ? "met" : "MISSED");
  }

  // ej run --detach: returns once the background ej has checked the command line; the build step
  // and the repeats go on there.
  {
    test::run_ej(dir.path(),
                 {"bench", "add", "bg", "--repeat", "1", "--build", "sleep 2", "--shell", "true"});
    std::vector<double> detach;
    std::vector<double> version;
    std::vector<std::string> started{"wait"};
    const int detach_rounds = std::min(rounds, 9);
    for (int round = 0; round < detach_rounds; ++round) {
      const auto start = Clock::now();
      const auto result = test::run_ej(dir.path(), {"run", "bg", "--detach"});
      detach.push_back(ms_since(start));
      const auto at = result.out.find("run @");
      if (at != std::string::npos) {
        started.push_back(result.out.substr(at + 4, 7));
      }
      version.push_back(run_ms({ej, "--version"}, dir.path()));
    }
    const auto reference = summary_of(version);
    test::print_timing("ej --version (reference)", reference, 0, 0);
    const auto detached = summary_of(detach);
    test::print_ratio("ej run --detach (build step of 2 s)", detached, "ej --version", reference, 0);
    std::printf("  goal < 1000 ms: %s\n", detached.max_ms < 1000 ? "met (every round)" : "MISSED");
    test::run_ej(dir.path(), started); // the runs end before the repository goes
  }
  if (keep) {
    std::printf("\nkept %s\n", dir.path().c_str());
    std::exit(0); // skip TempDir's clean-up
  }
  return 0;
}
