#include "util/closest.h"

#include <catch2/catch.hpp>

using namespace ej::util;

TEST_CASE("edit distance counts a transposition as one edit")
{
  CHECK(edit_distance("lgo", "log") == 1);
  CHECK(edit_distance("hlep", "help") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("same", "same") == 0);
}

TEST_CASE("closest names are near misses first, then abbreviations, and nothing when nothing is close")
{
  const std::vector<std::string> commands{"log", "show", "search", "compare", "completion", "help", "plan"};
  CHECK(closest_names("lgo", commands) == std::vector<std::string>{"log"});
  CHECK(closest_names("hlep", commands) == std::vector<std::string>{"help"});
  CHECK(closest_names("comp", commands) == std::vector<std::string>{"compare", "completion"});
  CHECK(closest_names("xyzzy", commands).empty());
  CHECK(closest_names("log", commands).empty()); // the word itself is no suggestion
}
