#include "support/command.h"
#include "util/build_id.h"

#include <catch2/catch.hpp>

#include <unistd.h>

TEST_CASE("the build ID of the running executable is the one readelf reads from its file")
{
  const auto id = ej::util::executable_build_id();
  REQUIRE(id.size() >= 16); // GCC on Debian links with --build-id (SHA-1: 40 hex digits)
  char self[4096] = {};
  REQUIRE(::readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  const auto notes = ej::test::run_command({"readelf", "-n", self});
  REQUIRE(notes.exit_code == 0);
  CHECK_THAT(notes.out, Catch::Contains("Build ID: " + id));
}
