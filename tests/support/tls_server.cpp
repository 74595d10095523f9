#include "support/tls_server.h"

#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <thread>

namespace ej::test {

namespace {

const char* const k_server_script = R"(
import http.server, os, ssl, sys
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(sys.argv[3] + ".tmp", "w") as out:
    out.write(str(server.server_port))
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
server.serve_forever()
)";

} // namespace

TlsServer::TlsServer(const std::filesystem::path& dir) : m_cert(dir / "cert.pem")
{
  const auto key = dir / "key.pem";
  const auto made =
      run_command({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                   "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:127.0.0.1", "-keyout",
                   key.string(), "-out", m_cert.string()});
  INFO("openssl: " << made.err);
  REQUIRE(made.exit_code == 0);
  const auto port_file = dir / "port";
  m_pid =
      start_command({"python3", "-c", k_server_script, m_cert.string(), key.string(), port_file.string()});
  for (int i = 0; i < 500 && !std::filesystem::exists(port_file); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(std::filesystem::exists(port_file));
  m_url = "https://127.0.0.1:" + read_text(port_file) + "/repo.git";
}

TlsServer::~TlsServer()
{
  ::kill(m_pid, SIGTERM);
  wait_command(m_pid);
}

} // namespace ej::test
