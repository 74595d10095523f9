#pragma once

#include <filesystem>
#include <string>

namespace ej::test {

// An HTTPS server on 127.0.0.1 (Python's http.server over TLS) with a fresh self-signed
// certificate made by openssl; it answers every request 501, which is enough to tell a refused
// handshake from an accepted one. Stopped when it goes out of scope.
class TlsServer {
public:
  explicit TlsServer(const std::filesystem::path& dir);
  ~TlsServer();
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  // https://127.0.0.1:PORT/repo.git
  const std::string& url() const { return m_url; }
  // The server's certificate, which is also its own CA.
  const std::filesystem::path& certificate() const { return m_cert; }

private:
  std::filesystem::path m_cert;
  int m_pid = -1;
  std::string m_url;
};

} // namespace ej::test
