#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/failure_tracker.h"
#include "support/skip.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

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

namespace {

// Every ej a test starts takes the GPU lock; the machine's own lock folder would make the tests
// that run at once (ctest -j) queue behind each other. Each test process gets a folder of its own,
// shared by the ejs it starts (the lock is per machine: two repositories of one test share it).
struct GpuLockFolder : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testRunStarting(const Catch::TestRunInfo&) override
  {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/ej-gpu-locks-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) {
      m_dir = pattern;
      ::setenv("EJ_GPU_LOCK_DIR", m_dir.c_str(), 1);
    }
  }
  void testRunEnded(const Catch::TestRunStats&) override
  {
    std::error_code ec;
    if (!m_dir.empty()) {
      std::filesystem::remove_all(m_dir, ec);
    }
  }

  std::string m_dir;
};

} // namespace

CATCH_REGISTER_LISTENER(GpuLockFolder)

// A run whose test cases all passed but one was skipped exits with ctest's SKIP_RETURN_CODE, so
// ctest reports it as skipped, not passed.
int main(int argc, char* argv[])
{
  const int failed = Catch::Session().run(argc, argv);
  if (failed == 0 && ej::test::some_test_skipped) {
    return ej::test::k_skip_exit_code;
  }
  return failed;
}
