#include "git/remote_auth.h"

#include "util/handle.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <libssh2.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ej::git {

namespace {

constexpr int k_max_attempts = 6;

std::filesystem::path ssh_dir()
{
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/") / ".ssh";
}

// The host and port of ssh://user@host:port/path or user@host:path.
std::pair<std::string, int> host_and_port(const std::string& url)
{
  std::string rest = url;
  int port = 22;
  const auto scheme = rest.find("://");
  if (scheme != std::string::npos) {
    rest = rest.substr(scheme + 3);
    rest = rest.substr(0, rest.find('/'));
  } else {
    rest = rest.substr(0, rest.find(':'));
  }
  if (const auto at = rest.rfind('@'); at != std::string::npos) {
    rest = rest.substr(at + 1);
  }
  if (scheme != std::string::npos) {
    if (const auto colon = rest.rfind(':');
        colon != std::string::npos && rest.find(']') == std::string::npos) {
      port = std::atoi(rest.substr(colon + 1).c_str());
      rest = rest.substr(0, colon);
    }
  }
  return {rest, port};
}

int key_type_mask(git_cert_ssh_raw_type_t type)
{
  switch (type) {
  case GIT_CERT_SSH_RAW_TYPE_RSA:
    return LIBSSH2_KNOWNHOST_KEY_SSHRSA;
  case GIT_CERT_SSH_RAW_TYPE_DSS:
    return LIBSSH2_KNOWNHOST_KEY_SSHDSS;
  case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_256:
    return LIBSSH2_KNOWNHOST_KEY_ECDSA_256;
  case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_384:
    return LIBSSH2_KNOWNHOST_KEY_ECDSA_384;
  case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_521:
    return LIBSSH2_KNOWNHOST_KEY_ECDSA_521;
  case GIT_CERT_SSH_RAW_TYPE_KEY_ED25519:
    return LIBSSH2_KNOWNHOST_KEY_ED25519;
  default:
    return LIBSSH2_KNOWNHOST_KEY_UNKNOWN;
  }
}

using SessionPtr = util::Handle<LIBSSH2_SESSION, libssh2_session_free>;
using KnownHostsPtr = util::Handle<LIBSSH2_KNOWNHOSTS, libssh2_knownhost_free>;

int check_host_key(git_cert* cert, int, const char* host, void* payload)
{
  auto& auth = *static_cast<RemoteAuth*>(payload);
  if (cert->cert_type != GIT_CERT_HOSTKEY_LIBSSH2) {
    return GIT_PASSTHROUGH; // https: libgit2 checks the certificate chain itself
  }
  const auto* key = reinterpret_cast<const git_cert_hostkey*>(cert);
  const auto [url_host, port] = host_and_port(auth.url);
  const std::string name = host != nullptr ? host : url_host;
  const auto known_hosts = ssh_dir() / "known_hosts";
  if ((key->type & GIT_CERT_SSH_RAW) == 0) {
    auth.refused_host_key = fmt::format("the ssh host key of {} cannot be checked", name);
    return GIT_ECERTIFICATE;
  }
  SessionPtr session(libssh2_session_init());
  KnownHostsPtr hosts(session ? libssh2_knownhost_init(session.get()) : nullptr);
  if (!hosts ||
      libssh2_knownhost_readfile(hosts.get(), known_hosts.c_str(), LIBSSH2_KNOWNHOST_FILE_OPENSSH) < 0) {
    auth.refused_host_key = fmt::format(
        "{} cannot be read, so the host key of {} cannot be checked: connect once with 'ssh {}' to "
        "record it",
        known_hosts.string(), name, name);
    return GIT_ECERTIFICATE;
  }
  libssh2_knownhost* found = nullptr;
  const int result = libssh2_knownhost_checkp(
      hosts.get(), name.c_str(), port, key->hostkey, key->hostkey_len,
      LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW | key_type_mask(key->raw_type), &found);
  if (result == LIBSSH2_KNOWNHOST_CHECK_MATCH) {
    return 0;
  }
  auth.refused_host_key =
      result == LIBSSH2_KNOWNHOST_CHECK_MISMATCH
          ? fmt::format(
                "the ssh host key of {} differs from the one in {}: someone may be in between; check it "
                "before you trust it",
                name, known_hosts.string())
          : fmt::format("the ssh host key of {} (port {}) is not in {}: connect once with ssh to record it",
                        name, port, known_hosts.string());
  return GIT_ECERTIFICATE;
}

// `git credential fill`: the user's credential helpers, for https remotes.
bool credential_helper(const std::string& url, std::string& user, std::string& password)
{
  char input_path[] = "/tmp/ej-credential-XXXXXX";
  const int fd = ::mkstemp(input_path);
  if (fd < 0) {
    return false;
  }
  ::close(fd);
  {
    std::ofstream input(input_path);
    input << "url=" << url << "\n\n";
  }
  const auto command =
      fmt::format("GIT_TERMINAL_PROMPT=0 git credential fill < '{}' 2>/dev/null", input_path);
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string output;
  if (pipe != nullptr) {
    char buffer[512];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
      output.append(buffer, n);
    }
    ::pclose(pipe);
  }
  std::filesystem::remove(input_path);
  for (const auto& line : util::split(output, '\n')) {
    if (line.rfind("username=", 0) == 0) {
      user = line.substr(9);
    } else if (line.rfind("password=", 0) == 0) {
      password = line.substr(9);
    }
  }
  return !password.empty();
}

bool has_agent()
{
  const char* socket = std::getenv("SSH_AUTH_SOCK");
  std::error_code error;
  return socket != nullptr && *socket != '\0' && std::filesystem::exists(socket, error);
}

int credentials(git_credential** out, const char* url, const char* user_from_url, unsigned int allowed,
                void* payload)
{
  auto& auth = *static_cast<RemoteAuth*>(payload);
  const int attempt = auth.attempts++;
  if (attempt >= k_max_attempts) {
    return GIT_EAUTH;
  }
  const std::string user = user_from_url != nullptr ? user_from_url : "git";
  if ((allowed & GIT_CREDENTIAL_USERNAME) != 0) {
    return git_credential_username_new(out, user.c_str());
  }
  if ((allowed & GIT_CREDENTIAL_SSH_KEY) != 0) {
    // The agent first (where the user's keys usually are), then the usual key files.
    const bool agent = has_agent();
    if (attempt == 0 && agent) {
      return git_credential_ssh_key_from_agent(out, user.c_str());
    }
    int file_index = attempt - (agent ? 1 : 0);
    for (const char* name : {"id_ed25519", "id_ecdsa", "id_rsa"}) {
      const auto key = ssh_dir() / name;
      if (!std::filesystem::exists(key)) {
        continue;
      }
      if (file_index-- == 0) {
        const auto public_key = key.string() + ".pub";
        return git_credential_ssh_key_new(out, user.c_str(),
                                          std::filesystem::exists(public_key) ? public_key.c_str() : nullptr,
                                          key.c_str(), nullptr);
      }
    }
    return GIT_EAUTH;
  }
  if ((allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) != 0 && attempt == 0) {
    std::string name = user_from_url != nullptr ? user_from_url : "";
    std::string password;
    if (credential_helper(url != nullptr ? url : auth.url, name, password)) {
      return git_credential_userpass_plaintext_new(out, name.c_str(), password.c_str());
    }
  }
  return GIT_EAUTH;
}

} // namespace

void use_user_credentials(git_remote_callbacks& callbacks, RemoteAuth& auth)
{
  callbacks.credentials = credentials;
  callbacks.certificate_check = check_host_key;
  callbacks.payload = &auth;
}

} // namespace ej::git
