#include "util/csv.h"

#include <catch2/catch.hpp>

using ej::util::csv_field;
using ej::util::csv_line;

TEST_CASE("a CSV field is quoted only when it holds a comma, a quote or a line break")
{
  CHECK(csv_field("time_ms") == "time_ms");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_line({"run", "variant=a,size=1", "2.5"}) == "run,\"variant=a,size=1\",2.5\n");
}
