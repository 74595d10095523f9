// libgit2's CA certificates, read on first use. libgit2 (with mbedTLS, as Debian builds it) parses
// the system's whole CA bundle when it starts: 55 million instructions, nine tenths of `ej status`,
// for the few commands that ever open an HTTPS remote. With libgit2 linked statically
// (EJ_STATIC_DEPS, cmake/static_deps.cmake) and its calls wrapped (ld --wrap), that first request
// to parse a CA file or folder is recorded instead, and carried out into the same certificate
// chain just before the first TLS handshake: the chain a connection verifies against is the one it
// had. Any parse error is then met where libgit2 met it at start-up, where it ignores it: the
// handshake fails to verify the server, as it did. Later requests (GIT_OPT_SET_SSL_CERT_LOCATIONS)
// are carried out at once, so that their errors are reported where they were.
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>

#include <cstring>
#include <mutex>

extern "C" {
int __real_mbedtls_x509_crt_parse_file(mbedtls_x509_crt* chain, const char* path);
int __real_mbedtls_x509_crt_parse_path(mbedtls_x509_crt* chain, const char* path);
void __real_mbedtls_x509_crt_free(mbedtls_x509_crt* chain);
int __real_mbedtls_ssl_handshake(mbedtls_ssl_context* ssl);
}

namespace {

// Constant-initialised, with no destructor: nothing runs at start-up or exit.
std::mutex g_mutex;
bool g_first_seen = false;             // the first request came (libgit2's start-up)
mbedtls_x509_crt* g_pending = nullptr; // its chain, until parsed or freed
bool g_pending_folder = false;
char g_pending_path[4096];

int parse_now(mbedtls_x509_crt* chain, const char* path, bool folder)
{
  return folder ? __real_mbedtls_x509_crt_parse_path(chain, path)
                : __real_mbedtls_x509_crt_parse_file(chain, path);
}

int parse(mbedtls_x509_crt* chain, const char* path, bool folder)
{
  {
    const std::lock_guard lock(g_mutex);
    const bool first = !g_first_seen;
    g_first_seen = true;
    if (first && path != nullptr && std::strlen(path) < sizeof g_pending_path) {
      std::strcpy(g_pending_path, path);
      g_pending = chain;
      g_pending_folder = folder;
      return 0; // as a bundle of which no certificate failed to parse
    }
  }
  return parse_now(chain, path, folder);
}

} // namespace

extern "C" {

int __wrap_mbedtls_x509_crt_parse_file(mbedtls_x509_crt* chain, const char* path)
{
  return parse(chain, path, false);
}

int __wrap_mbedtls_x509_crt_parse_path(mbedtls_x509_crt* chain, const char* path)
{
  return parse(chain, path, true);
}

// libgit2 frees a chain when it is given another one, and at shutdown: its pending parse goes too.
void __wrap_mbedtls_x509_crt_free(mbedtls_x509_crt* chain)
{
  {
    const std::lock_guard lock(g_mutex);
    if (g_pending == chain) {
      g_pending = nullptr;
    }
  }
  __real_mbedtls_x509_crt_free(chain);
}

// Held while parsing, so that a second connection's handshake waits for the chain to be whole.
int __wrap_mbedtls_ssl_handshake(mbedtls_ssl_context* ssl)
{
  {
    const std::lock_guard lock(g_mutex);
    if (g_pending != nullptr) {
      parse_now(g_pending, g_pending_path, g_pending_folder);
      g_pending = nullptr;
    }
  }
  return __real_mbedtls_ssl_handshake(ssl);
}

} // extern "C"
