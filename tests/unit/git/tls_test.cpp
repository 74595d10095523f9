// HTTPS remotes are verified against the CA certificates libgit2 was given. With the static build
// those are parsed at the first TLS handshake, not when libgit2 starts (cmake/static/ca_on_demand.cpp):
// a server whose certificate no CA signed is refused, and one signed by the CA libgit2 was told to
// use (GIT_OPT_SET_SSL_CERT_LOCATIONS, which goes the same deferred way) is accepted.
#include "git/libgit2.h"
#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

using namespace ej;

namespace {

// An HTTPS server on 127.0.0.1 with a fresh self-signed certificate; it answers every request
// 501, which is enough to tell a refused handshake from an accepted one.
class TlsServer {
public:
  explicit TlsServer(const std::filesystem::path& dir) : m_cert(dir / "cert.pem")
  {
    const auto made =
        test::run_command({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                           "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:127.0.0.1", "-keyout",
                           (dir / "key.pem").string(), "-out", m_cert.string()});
    REQUIRE(made.exit_code == 0);
    const auto port_file = dir / "port";
    const std::string script = R"(
import http.server, ssl, sys
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(sys.argv[3] + ".tmp", "w") as out:
    out.write(str(server.server_port))
import os
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
server.serve_forever()
)";
    m_pid = test::start_command(
        {"python3", "-c", script, m_cert.string(), (dir / "key.pem").string(), port_file.string()});
    for (int i = 0; i < 500 && !std::filesystem::exists(port_file); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(std::filesystem::exists(port_file));
    m_url = "https://127.0.0.1:" + test::read_text(port_file) + "/repo.git";
  }
  ~TlsServer()
  {
    ::kill(m_pid, SIGTERM);
    test::wait_command(m_pid);
  }
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  const std::string& url() const { return m_url; }
  const std::filesystem::path& certificate() const { return m_cert; }

private:
  std::filesystem::path m_cert;
  int m_pid = -1;
  std::string m_url;
};

struct Connection {
  int rc;
  std::string message;
};

Connection connect(const std::string& url)
{
  git_remote* raw = nullptr;
  git::check(git_remote_create_detached(&raw, url.c_str()), "create a remote");
  git::RemotePtr remote(raw);
  git_remote_callbacks callbacks = GIT_REMOTE_CALLBACKS_INIT;
  const int rc = git_remote_connect(remote.get(), GIT_DIRECTION_FETCH, &callbacks, nullptr, nullptr);
  const git_error* error = git_error_last();
  return {rc, error != nullptr && error->message != nullptr ? error->message : ""};
}

} // namespace

TEST_CASE("an HTTPS remote is verified against the CA certificates libgit2 was given, read at the handshake")
{
  test::TempDir dir("ej-tls");
  TlsServer server(dir.path());
  git::ensure_libgit2();

  // The system's CAs (read now, at the first handshake) did not sign the server's certificate.
  const auto refused = connect(server.url());
  INFO(refused.message);
  CHECK(refused.rc == GIT_ECERTIFICATE);

  // Given the server's own certificate as the CA, the handshake passes and the HTTP answer is read.
  REQUIRE(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, server.certificate().c_str(), nullptr) == 0);
  const auto accepted = connect(server.url());
  INFO(accepted.message);
  CHECK(accepted.rc != GIT_ECERTIFICATE);
  CHECK(accepted.rc < 0);
  CHECK_THAT(accepted.message, Catch::Contains("501"));
}
