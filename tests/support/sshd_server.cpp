#include "support/sshd_server.h"

#include "support/command.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <pwd.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace ej::test {

namespace {

constexpr const char* k_sshd = "/usr/sbin/sshd";

bool executable(const std::string& path)
{
  return ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> in_path(const std::string& name)
{
  const char* path = std::getenv("PATH");
  std::string rest = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= rest.size()) {
    const auto end = rest.find(':', start);
    const auto dir = rest.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty() && executable(dir + "/" + name)) {
      return dir + "/" + name;
    }
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  return std::nullopt;
}

// A port nothing listens on now, from the kernel.
int free_port()
{
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error(std::string("cannot find a free port: ") + std::strerror(errno));
  }
  const int port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

bool accepts(int port)
{
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

void keygen(const std::filesystem::path& key)
{
  const auto result =
      run_command({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ej-test", "-f", key.string()});
  if (result.exit_code != 0) {
    throw std::runtime_error("ssh-keygen failed: " + result.err);
  }
}

std::string current_user()
{
  const passwd* entry = ::getpwuid(::geteuid());
  if (entry == nullptr) {
    throw std::runtime_error("the current user has no passwd entry; sshd cannot log it in");
  }
  return entry->pw_name;
}

} // namespace

std::optional<std::string> SshdServer::unavailable()
{
  if (!executable(k_sshd)) {
    return std::string(k_sshd) +
           " is not installed (Debian: apt-get install openssh-server; see scripts/install-deps.sh --test)";
  }
  for (const char* tool : {"ssh", "ssh-keygen"}) {
    if (!in_path(tool)) {
      return std::string(tool) + " is not installed (Debian: apt-get install openssh-client)";
    }
  }
  return std::nullopt;
}

SshdServer::SshdServer()
{
  if (const auto reason = unavailable()) {
    throw std::runtime_error(*reason);
  }
  m_user = current_user();
  keygen(host_key());
  keygen(user_key());
  keygen(m_dir / "refused_ed25519");
  std::filesystem::copy_file(user_key().string() + ".pub", m_dir / "authorized_keys");
  ::chmod((m_dir / "authorized_keys").c_str(), 0600);
  // sshd refuses to start without its privilege separation directory (made by the package's
  // service, which tests do not start).
  ::mkdir("/run/sshd", 0755);

  for (int attempt = 0; attempt < 5 && m_pid < 0; ++attempt) {
    m_port = free_port();
    write_text(m_dir / "sshd_config",
               "Port " + std::to_string(m_port) + "\nListenAddress 127.0.0.1\nHostKey " +
                   host_key().string() + "\nAuthorizedKeysFile " + (m_dir / "authorized_keys").string() +
                   "\nPubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                   "PermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\nPidFile none\n"
                   "MaxSessions 100\nMaxStartups 100\nLogLevel VERBOSE\n");
    const auto log_path = m_dir / "sshd.log";
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      const int null = ::open("/dev/null", O_RDONLY);
      ::dup2(null, STDIN_FILENO);
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
      const auto config = (m_dir / "sshd_config").string();
      ::execl(k_sshd, k_sshd, "-D", "-e", "-f", config.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    bool exited = false;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        exited = true; // the port was taken meanwhile, or the configuration is refused
        break;
      }
      if (accepts(m_port)) {
        m_pid = pid;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (m_pid < 0 && !exited) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
  if (m_pid < 0) {
    throw std::runtime_error("sshd did not start; its log:\n" + log());
  }
  const auto host_public = read_text(host_key().string() + ".pub");
  write_text(known_hosts(), "[127.0.0.1]:" + std::to_string(m_port) + " " + host_public);
  std::string config;
  for (const auto& [alias, key, port] :
       {std::tuple{m_alias, user_key(), m_port},
        std::tuple{alias_with_refused_key(), m_dir / "refused_ed25519", m_port},
        std::tuple{alias_unreachable(), user_key(), free_port()}}) {
    config += "Host " + alias + "\n  HostName 127.0.0.1\n  Port " + std::to_string(port) + "\n  User " +
              m_user + "\n  IdentityFile " + key.string() +
              "\n  IdentitiesOnly yes\n  IdentityAgent none\n"
              "  StrictHostKeyChecking yes\n  UserKnownHostsFile " +
              known_hosts().string() +
              "\n  GlobalKnownHostsFile /dev/null\n  HostKeyAlias [127.0.0.1]:" + std::to_string(m_port) +
              "\n  LogLevel ERROR\n  ConnectTimeout 10\n";
  }
  write_text(client_config(), config);
}

SshdServer::~SshdServer()
{
  kill_sessions();
  if (m_pid > 0) {
    ::kill(m_pid, SIGTERM);
    ::waitpid(m_pid, nullptr, 0);
  }
}

std::string SshdServer::ssh_command() const
{
  return "ssh -F " + client_config().string();
}

std::string SshdServer::log() const
{
  std::ifstream in(m_dir / "sshd.log");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<int> SshdServer::session_pids() const
{
  // pid -> (parent, command name) of every process
  std::map<int, std::pair<int, std::string>> processes;
  // Error codes, not exceptions: this runs in the destructor, and a range-for's operator++ throws
  // when reading /proc fails.
  std::error_code ec;
  const std::filesystem::directory_iterator end;
  for (std::filesystem::directory_iterator it("/proc", ec); !ec && it != end; it.increment(ec)) {
    const auto& entry = *it;
    const auto name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    // getline, not an istreambuf_iterator: a process that exits after the open makes read() fail
    // with ESRCH, which the iterator throws out of this destructor's call (std::terminate).
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos) {
      continue;
    }
    std::istringstream rest(text.substr(close + 2)); // "pid (comm) state ppid ..."
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    processes[std::stoi(name)] = {ppid, text.substr(open + 1, close - open - 1)};
  }
  // The sshd processes below the listener (privileged monitor and unprivileged child of each
  // connection); not the shells and commands they started.
  std::vector<int> pids;
  for (const auto& [pid, info] : processes) {
    if (info.second != "sshd") {
      continue;
    }
    for (int parent = info.first; parent > 1;) {
      if (parent == m_pid) {
        pids.push_back(pid);
        break;
      }
      const auto it = processes.find(parent);
      parent = it == processes.end() ? 0 : it->second.first;
    }
  }
  return pids;
}

void SshdServer::kill_sessions() const
{
  for (const int pid : session_pids()) {
    ::kill(pid, SIGKILL);
  }
}

} // namespace ej::test
