// libgit2 reads the system's CA bundle for HTTPS remotes. Linked statically, ej has it read at the
// first TLS handshake (cmake/static/ca_on_demand.cpp): commands that open no HTTPS remote never
// read it (parsing it was nine tenths of ej status). Which files ej opens is seen with strace.
#include "support/ej_repo.h"
#include "support/tls_server.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace ej::test;

namespace {

// The files an ej command opened under /etc/ssl (libgit2's CA bundle and folder on Debian), and
// what the command printed.
struct Traced {
  CommandResult result;
  std::vector<std::string> opened;
};

Traced traced_ej(const EjRepo& repo, const std::vector<std::string>& args)
{
  const TempDir scratch("ej-strace"); // outside the work tree, which ej reads
  const auto log = scratch / "strace.log";
  std::vector<std::string> argv{"strace", "-f",         "-qq",    "-e", "trace=open,openat",
                                "-o",     log.string(), EJ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  // LeakSanitizer stops the world with ptrace, which a traced process cannot (sanitizer builds).
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string no_leak_check = std::string(asan != nullptr ? asan : "") + ":detect_leaks=0";
  Traced traced{run_command(argv, {repo.path(), {{"ASAN_OPTIONS", no_leak_check}}, ""}), {}};
  INFO("strace: " << traced.result.err);
  REQUIRE(std::filesystem::exists(log)); // strace (scripts/install-deps.sh --test)
  std::istringstream lines(read_text(log));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"/etc/ssl/") != std::string::npos) {
      traced.opened.push_back(line);
    }
  }
  return traced;
}

} // namespace

TEST_CASE("the system's CA bundle is read at the first HTTPS handshake, never by commands that open no HTTPS "
          "remote")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "P"});
  std::vector<std::string> local;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"try", "an attempt", "--plan", "p"}, {"status", "1", "rejected", "--reason", "r"}, {"log"}}) {
    const auto traced = traced_ej(repo, args);
    INFO(traced.result.err);
    REQUIRE(traced.result.exit_code == 0);
    local.insert(local.end(), traced.opened.begin(), traced.opened.end());
  }

  TempDir dir("ej-tls");
  TlsServer server(dir.path());
  git(repo.path(), {"remote", "add", "origin", server.url()});
  const auto synced = traced_ej(repo, {"sync"});
  CHECK(synced.result.exit_code == 1);
  CHECK_THAT(synced.result.err, Catch::Contains("certificate")); // a self-signed server, refused
  CHECK_FALSE(synced.opened.empty());                            // the handshake read the bundle
#if EJ_LIBGIT2_STATIC
  INFO((local.empty() ? std::string() : local.front()));
  CHECK(local.empty());
#else
  CHECK_FALSE(local.empty()); // the shared libgit2 (sanitizer builds) reads it when it starts
#endif
}
