#pragma once

// Under AddressSanitizer every ej a test starts costs several times its release time (most of the
// sanitizer suite's hour in CI). Stress tests that repeat one code path hundreds of times run fewer
// rounds there: the sanitizers need each path taken, not taken 400 times, and the release suite runs
// the full count.
namespace ej::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool k_sanitized = true;
#else
inline constexpr bool k_sanitized = false;
#endif

constexpr int full_or_sanitized(int full, int sanitized)
{
  return k_sanitized ? sanitized : full;
}

} // namespace ej::test
