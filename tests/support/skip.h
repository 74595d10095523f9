#pragma once

#include <catch2/catch.hpp>

#include <string>

// Tests that cannot run here say why and are reported by ctest as skipped (the process exits with
// k_skip_exit_code, ctest's SKIP_RETURN_CODE), never as passed. Under CI (CI set, not "false")
// a missing service is a failure instead: an install step that broke must not turn green.
namespace ej::test {

inline constexpr int k_skip_exit_code = 77;

// Whether this process runs under CI.
bool under_ci();

// Set when a test case of this process was skipped (read by catch_main).
extern bool some_test_skipped;

void note_skipped(const std::string& why);

} // namespace ej::test

// A service the suite installs (sshd, Slurm, Chromium, hyperfine, a compiler) is missing: fails
// under CI, else skips. Use as a statement; it returns from the test case.
#define EJ_SKIP_WITHOUT_SERVICE(why)                                                                         \
  do {                                                                                                       \
    const std::string ej_skip_why_ = (why);                                                                  \
    if (::ej::test::under_ci()) {                                                                            \
      FAIL("missing under CI: " << ej_skip_why_ << " (scripts/install-deps.sh --test installs it)");         \
    }                                                                                                        \
    ::ej::test::note_skipped(ej_skip_why_);                                                                  \
    WARN("skipped: " << ej_skip_why_);                                                                       \
    return;                                                                                                  \
  } while (false)

// The test does not apply to this machine (a GPU present or absent, a sanitizer build): skipped,
// under CI too.
#define EJ_SKIP_NOT_APPLICABLE(why)                                                                          \
  do {                                                                                                       \
    const std::string ej_skip_why_ = (why);                                                                  \
    ::ej::test::note_skipped(ej_skip_why_);                                                                  \
    WARN("skipped: " << ej_skip_why_);                                                                       \
    return;                                                                                                  \
  } while (false)
