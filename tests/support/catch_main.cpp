#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "support/failure_tracker.h"

namespace {

// Records whether the running test case has failed, so TempDir can keep its directory.
struct FailureTracker : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo&) override { ej::test::current_test_failed = false; }
  bool assertionEnded(const Catch::AssertionStats& stats) override
  {
    if (!stats.assertionResult.succeeded()) {
      ej::test::current_test_failed = true;
    }
    return true;
  }
};

} // namespace

CATCH_REGISTER_LISTENER(FailureTracker)
