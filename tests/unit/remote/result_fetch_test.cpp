#include "remote/result_fetch.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace ej;

namespace {

std::string read_back(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("result files printed by the host are written under the local copy of its work tree")
{
  remote::ResultFetch fetch({"out.json", "results/*.txt"}, "run-3", "/home/u/.cache/ej/runs/x", "/w/tree");
  const auto local = fetch.local_path("/w/tree/sub");
  CHECK(local == fetch.local_root() / "sub");
  const auto moved = fetch.unpack("ej-moved 'out.json' was there before the run: moved aside (kept)\n"
                                  "ej-file 8 out.json\n{\"v\": 1}" // sizes, not lines, frame a file
                                  "ej-file 4 results/a.txt\nx=1\n",
                                  "/w/tree/sub");
  REQUIRE(moved.size() == 1);
  CHECK(read_back(local / "out.json") == "{\"v\": 1}");
  CHECK(read_back(local / "results" / "a.txt") == "x=1\n");
  // The next repeat's files replace the previous ones: nothing of an older repeat is read.
  fetch.unpack("", "/w/tree/sub");
  CHECK_FALSE(std::filesystem::exists(local / "out.json"));
}

TEST_CASE("what the host printed is refused when it is not a file frame or names a path outside")
{
  remote::ResultFetch fetch({"out.json"}, "run-1", "/s", "/w");
  CHECK_THROWS_WITH(fetch.unpack("garbage\n", "/w"), Catch::Contains("a form ej does not read"));
  CHECK_THROWS_WITH(fetch.unpack("ej-file 99 out.json\nshort", "/w"),
                    Catch::Contains("a form ej does not read"));
  CHECK_THROWS_WITH(fetch.unpack("ej-file 1 ../escape\nx", "/w"), Catch::Contains("the name '../escape'"));
  CHECK_THROWS_WITH(fetch.unpack("ej-file 1 /etc/x\nx", "/w"), Catch::Contains("the name '/etc/x'"));
  CHECK_THROWS_AS(remote::check_fetchable("v", "../up.json"), UsageError);
  CHECK_NOTHROW(remote::check_fetchable("v", "results/*.json"));
}

TEST_CASE("the step before a remote repeat moves aside, never removes, what the run did not write")
{
  remote::ResultFetch fetch({"out.json"}, "run-2", "/s/x", "/w");
  const auto line = fetch.before_repeat("/w");
  CHECK_THAT(line, Catch::Contains("mv -- \"$f\" \"$a\" || {"));
  CHECK_THAT(line, Catch::Contains(".before-run-2"));
  CHECK_THAT(line, Catch::EndsWith("touch \"$S/started\" )"));
  CHECK_THAT(fetch.fetch_command("/w"), Catch::Contains("for f in 'out.json'"));
}
