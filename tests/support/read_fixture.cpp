// read_fixture in a file of its own: it asserts with Catch2, which the benchmarks in tests/perf
// (linked with this support library, not with Catch2's main) must not pull in.
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

namespace ej::test {

std::string read_fixture(const std::string& name)
{
  const auto path = fixtures_dir() / name;
  REQUIRE(std::filesystem::is_regular_file(path));
  return read_text(path);
}

} // namespace ej::test
