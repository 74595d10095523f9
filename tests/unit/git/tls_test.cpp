// HTTPS remotes are verified against the CA certificates libgit2 was given. With the static build
// those are parsed at the first TLS handshake, not when libgit2 starts (cmake/static/ca_on_demand.cpp):
// a server whose certificate no CA signed is refused, and one signed by the CA libgit2 was told to
// use later (GIT_OPT_SET_SSL_CERT_LOCATIONS, read at once) is accepted.
#include "git/libgit2.h"
#include "support/temp_dir.h"
#include "support/tls_server.h"

#include <catch2/catch.hpp>

#include <string>

using namespace ej;

namespace {

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
  test::TlsServer server(dir.path());
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

  // A location given later is read at once, as libgit2 reads it: a bad one is an error there, and
  // the chain in use stays.
  CHECK(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, (dir / "no-such-ca.pem").c_str(), nullptr) < 0);
  CHECK(connect(server.url()).rc != GIT_ECERTIFICATE);
}
