#include "support/slurm_cluster.h"

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <fstream>
#include <memory>
#include <netinet/in.h>
#include <pwd.h>
#include <random>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ej::test {

namespace {

const std::vector<std::string> k_binaries = {"munged", "slurmctld", "slurmd",  "sbatch",
                                             "srun",   "scontrol",  "scancel", "sinfo"};

bool in_path(const std::string& name)
{
  for (const std::string dir :
       {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"}) {
    if (::access((dir + "/" + name).c_str(), X_OK) == 0) {
      return true;
    }
  }
  return false;
}

// A port nobody listens on now (the kernel's choice for port 0).
int free_port()
{
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(fd);
  return ntohs(address.sin_port);
}

std::string host_name()
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

std::string user_name()
{
  const auto* entry = ::getpwuid(::getuid());
  return entry != nullptr ? entry->pw_name : "root";
}

std::string tail_of(const std::filesystem::path& path)
{
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

} // namespace

std::optional<std::string> SlurmCluster::missing()
{
  for (const auto& name : k_binaries) {
    if (!in_path(name)) {
      return name + " is not installed (scripts/install-deps.sh --test installs slurm-wlm and munge)";
    }
  }
  return std::nullopt;
}

SlurmCluster::SlurmCluster() : m_dir("ej-slurm"), m_node(host_name())
{
  const auto& dir = m_dir.path();
  for (const auto* sub : {"munge", "spool", "state", "log"}) {
    std::filesystem::create_directories(dir / sub);
  }
  ::chmod(dir.c_str(), 0755); // munged wants every folder up to its socket searchable
  ::chmod((dir / "munge").c_str(), 0755);
  {
    std::random_device random;
    std::string key;
    for (int i = 0; i < 1024; ++i) {
      key += static_cast<char>(random() & 0xff);
    }
    write_text(dir / "munge" / "munge.key", key);
    ::chmod((dir / "munge" / "munge.key").c_str(), 0600);
  }
  const auto socket = (dir / "munge" / "munge.socket").string();
  m_daemons.push_back(start_command(
      {"munged", "-F", "--socket=" + socket, "--key-file=" + (dir / "munge/munge.key").string(),
       "--log-file=" + (dir / "log/munged.log").string(), "--pid-file=" + (dir / "munge/munged.pid").string(),
       "--seed-file=" + (dir / "munge/munged.seed").string()}));

  const int controller_port = free_port();
  int node_port = free_port();
  while (node_port == controller_port) {
    node_port = free_port();
  }
  const auto cpus = std::max(1u, std::thread::hardware_concurrency());
  const auto user = user_name();
  std::ostringstream conf;
  conf << "ClusterName=ejtest\n"
       << "SlurmctldHost=" << m_node << "(127.0.0.1)\n"
       << "SlurmctldPort=" << controller_port << "\nSlurmdPort=" << node_port << "\n"
       << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << socket << "\n"
       << "SlurmUser=" << user << "\nSlurmdUser=" << user << "\n"
       << "StateSaveLocation=" << (dir / "state").string() << "\nSlurmdSpoolDir=" << (dir / "spool").string()
       << "\n"
       << "SlurmctldPidFile=" << (dir / "slurmctld.pid").string()
       << "\nSlurmdPidFile=" << (dir / "slurmd.pid").string()
       << "\nSlurmctldLogFile=" << (dir / "log/slurmctld.log").string()
       << "\nSlurmdLogFile=" << (dir / "log/slurmd.log").string() << "\n"
       << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n"
       << "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\nSwitchType=switch/none\n"
       << "MpiDefault=none\nReturnToService=2\nSchedulerType=sched/builtin\nSelectType=select/cons_tres\n"
       << "SelectTypeParameters=CR_Core\nMinJobAge=300\nKillWait=2\nInactiveLimit=0\n"
       << "NodeName=" << m_node << " NodeAddr=127.0.0.1 CPUs=" << cpus << " State=UNKNOWN\n"
       << "PartitionName=" << partition() << " Nodes=" << m_node
       << " Default=YES MaxTime=INFINITE State=UP\n";
  write_text(dir / "slurm.conf", conf.str());

  // munged must answer before the Slurm daemons ask it anything. A minute: three daemons start
  // slowly on a loaded machine; a cluster that never comes up still fails.
  constexpr int k_start_s = 60;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(k_start_s);
  while (!std::filesystem::exists(socket) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const CommandOptions options{dir, env(), {}};
  m_daemons.push_back(start_command({"slurmctld", "-D", "-i"}, options));
  m_daemons.push_back(start_command({"slurmd", "-D"}, options));
  while (std::chrono::steady_clock::now() < deadline) {
    const auto state = client({"sinfo", "-h", "-o", "%t"});
    if (state.exit_code == 0 && state.out.find("idle") != std::string::npos) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto said = logs();
  stop();
  FAIL("the test Slurm did not come up within " << k_start_s << " s\n" << said);
}

SlurmCluster::~SlurmCluster()
{
  stop();
}

void SlurmCluster::stop() noexcept
{
  if (m_daemons.empty()) {
    return;
  }
  // Before slurmd goes: its job steps end. run_command throws when it cannot start scancel, and
  // this runs in the destructor (at exit, for the shared cluster): the daemons are stopped anyway.
  try {
    client({"scancel", "--full", "--user=" + user_name()});
  } catch (const std::exception&) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (auto it = m_daemons.rbegin(); it != m_daemons.rend(); ++it) {
    ::kill(*it, SIGTERM);
    wait_command(*it);
  }
  m_daemons.clear();
}

std::map<std::string, std::string> SlurmCluster::env() const
{
  return {{"SLURM_CONF", (m_dir.path() / "slurm.conf").string()}};
}

CommandResult SlurmCluster::client(const std::vector<std::string>& argv) const
{
  CommandOptions options;
  options.env = env();
  return run_command(argv, options);
}

std::string SlurmCluster::logs() const
{
  std::string text;
  for (const auto* name : {"munged.log", "slurmctld.log", "slurmd.log"}) {
    text += std::string("--- ") + name + " ---\n" + tail_of(m_dir.path() / "log" / name) + "\n";
  }
  return text;
}

SlurmCluster& SlurmCluster::shared()
{
  static std::unique_ptr<SlurmCluster> started = std::make_unique<SlurmCluster>();
  return *started;
}

std::string SlurmCluster::job_state(const std::string& job) const
{
  const auto shown = client({"scontrol", "show", "job", "-o", job});
  const auto at = shown.out.find("JobState=");
  return at == std::string::npos ? shown.out + shown.err
                                 : shown.out.substr(at + 9, shown.out.find(' ', at) - at - 9);
}

std::string SlurmCluster::final_job_state(const std::string& job) const
{
  std::string state;
  for (int tries = 0; tries < 100; ++tries) {
    state = job_state(job);
    if (!state.starts_with("RUNNING") && !state.starts_with("COMPLETING") && !state.starts_with("PENDING")) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return state;
}

std::string SlurmCluster::job_of_run(int run) const
{
  for (int tries = 0; tries < 100; ++tries) {
    const auto listed = client({"squeue", "-h", "-o", "%i", "-n", "ej-run-" + std::to_string(run)});
    if (!listed.out.empty()) {
      return listed.out.substr(0, listed.out.find('\n'));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  FAIL("no Slurm job for run #" << run << "\n" << logs());
  return "";
}

} // namespace ej::test
