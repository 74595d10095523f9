// A test whose service is missing, for the tests of the skip mechanism itself (tests/CMakeLists.txt):
// skipped (exit 77) outside CI, failed under CI.
#include "support/skip.h"

TEST_CASE("a test whose service is missing")
{
  EJ_SKIP_WITHOUT_SERVICE("the probe's service is never installed");
}
