// libgit2's CA certificates, read on first use. libgit2 (with mbedTLS, as Debian builds it) parses
// the system's whole CA bundle when it starts: 55 million instructions, nine tenths of `ej status`,
// for the few commands that ever open an HTTPS remote. With libgit2 linked statically
// (EJ_STATIC_DEPS, cmake/static_deps.cmake) and its calls wrapped (ld --wrap), a request to parse
// a CA file or folder is recorded instead, and carried out into the same certificate chain just
// before the first TLS handshake: the chain a connection verifies against is the one it had.
// Any parse error is then met where libgit2 met it at start-up, where it ignores it: the handshake
// fails to verify the server, as it did.
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
int __real_mbedtls_x509_crt_parse_file(mbedtls_x509_crt* chain, const char* path);
int __real_mbedtls_x509_crt_parse_path(mbedtls_x509_crt* chain, const char* path);
void __real_mbedtls_x509_crt_free(mbedtls_x509_crt* chain);
int __real_mbedtls_ssl_handshake(mbedtls_ssl_context* ssl);
}

namespace {

struct PendingParse {
  mbedtls_x509_crt* chain;
  std::string path;
  bool folder;
};

// Constant-initialised: nothing runs at start-up.
std::mutex g_mutex;
std::vector<PendingParse> g_pending;

int defer(mbedtls_x509_crt* chain, const char* path, bool folder)
{
  const std::lock_guard lock(g_mutex);
  g_pending.push_back({chain, path, folder});
  return 0; // as a bundle of which no certificate failed to parse
}

} // namespace

extern "C" {

int __wrap_mbedtls_x509_crt_parse_file(mbedtls_x509_crt* chain, const char* path)
{
  return defer(chain, path, false);
}

int __wrap_mbedtls_x509_crt_parse_path(mbedtls_x509_crt* chain, const char* path)
{
  return defer(chain, path, true);
}

// libgit2 frees a chain when it is given another one, and at shutdown: its pending parse goes too.
void __wrap_mbedtls_x509_crt_free(mbedtls_x509_crt* chain)
{
  {
    const std::lock_guard lock(g_mutex);
    std::erase_if(g_pending, [chain](const PendingParse& pending) { return pending.chain == chain; });
  }
  __real_mbedtls_x509_crt_free(chain);
}

// Held while parsing, so that a second connection's handshake waits for the chain to be whole.
int __wrap_mbedtls_ssl_handshake(mbedtls_ssl_context* ssl)
{
  {
    const std::lock_guard lock(g_mutex);
    for (const auto& pending : g_pending) {
      if (pending.folder) {
        __real_mbedtls_x509_crt_parse_path(pending.chain, pending.path.c_str());
      } else {
        __real_mbedtls_x509_crt_parse_file(pending.chain, pending.path.c_str());
      }
    }
    g_pending.clear();
  }
  return __real_mbedtls_ssl_handshake(ssl);
}

} // extern "C"
