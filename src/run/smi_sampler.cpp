#include "run/gpu_sampler.h"
#include "run/tool.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

// The nvidia-smi source of GpuSampler, for machines without a loadable NVML: one
// `nvidia-smi --query-gpu=... -lms N` for the whole run, its lines read by the thread as they come.
namespace ej::run {

namespace {

class SmiSampler final : public GpuSampler {
public:
  SmiSampler(const std::string& program, const GpuSet& gpus, int interval_ms)
      : GpuSampler("nvidia-smi", interval_ms)
  {
    std::vector<std::string> argv = {program, fmt::format("--query-gpu={}", k_sampler_smi_fields),
                                     "--format=csv,noheader,nounits",
                                     fmt::format("--loop-ms={}", interval_ms)};
    if (!gpus.all) {
      argv.push_back("--id=" + util::join(gpus.devices, ","));
    }
    spawn(argv);
    // The first lines say whether it reads GPUs at all ("NVIDIA-SMI has failed ..." otherwise).
    std::string first;
    if (!read_line(first, 10'000) || !parse_sampler_smi_line(first)) {
      end_child();
      throw Error("{} does not report GPUs{}", program,
                  first.empty() ? "" : ": " + util::first_line(first, 160));
    }
    start_thread([this] { read_loop(); });
  }
  ~SmiSampler() override
  {
    end_child(); // its pipe closes: the thread's read ends
    stop_thread();
  }
  SmiSampler(const SmiSampler&) = delete;
  SmiSampler& operator=(const SmiSampler&) = delete;

protected:
  std::vector<GpuReading> read_now() override { return {}; } // it reports on its own clock

private:
  void spawn(const std::vector<std::string>& argv)
  {
    // A group of its own: the terminal's Ctrl-C goes to ej, which ends the run and then this.
    auto spawned = spawn_piped(argv, true);
    if (spawned.pid < 0) {
      throw Error("{}", spawned.error);
    }
    m_pid = spawned.pid;
    m_out = std::move(spawned.out);
  }

  void end_child() noexcept
  {
    if (m_pid > 0) {
      ::kill(-m_pid, SIGTERM); // its group: a wrapper script and what it started
      int status = 0;
      while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
      }
      m_pid = -1;
    }
  }

  // One line of its output, waiting at most timeout_ms (-1: until it ends); false at its end.
  bool read_line(std::string& line, int timeout_ms)
  {
    while (true) {
      if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
        line = m_buffer.substr(0, newline);
        m_buffer.erase(0, newline + 1);
        return true;
      }
      pollfd ready{m_out.get(), POLLIN, 0};
      const int polled = ::poll(&ready, 1, timeout_ms);
      if (polled < 0 && errno == EINTR) {
        continue;
      }
      if (polled <= 0) {
        line = m_buffer;
        return false;
      }
      char chunk[4096];
      const auto got = ::read(m_out.get(), chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        line = m_buffer;
        m_ended = true;
        return false;
      }
      m_buffer.append(chunk, static_cast<std::size_t>(got));
    }
  }

  void read_loop()
  {
    std::string line;
    while (true) {
      {
        const std::lock_guard lock(m_mutex);
        if (m_stopping) {
          return;
        }
      }
      if (read_line(line, 100)) {
        if (auto reading = parse_sampler_smi_line(line)) {
          deliver({std::move(*reading)});
        }
      } else if (m_ended) {
        return; // nvidia-smi is gone: the repeats from now on get no readings
      }
    }
  }

  pid_t m_pid = -1;
  util::UniqueFd m_out;
  std::string m_buffer;
  bool m_ended = false; // its output reached its end
};

} // namespace

std::unique_ptr<GpuSampler> start_smi_sampler(const std::string& program, const GpuSet& gpus, int interval_ms)
{
  return std::make_unique<SmiSampler>(program, gpus, interval_ms);
}

} // namespace ej::run
