#pragma once

#include <string>
#include <string_view>

namespace ej::core {

enum class Comparator { Less, LessEqual, Greater, GreaterEqual };

// A plan's target, e.g. "verify_ms < 15": the plan succeeds once the metric satisfies it. It may
// name the benchmark that measures the metric ("verify:verify_ms < 15"); without one, it applies to
// whichever benchmark measures it.
struct Target {
  std::string bench;  // a benchmark name, or empty
  std::string metric; // [A-Za-z_][A-Za-z0-9_.]*
  Comparator comparator = Comparator::Less;
  double value = 0; // finite
};

// Parses "[BENCH:]METRIC OP NUMBER" with OP one of < <= > >=, spaces optional ("x<=3", "x >= 1e3",
// "verify:verify_ms < 15").
// Throws ej::UsageError saying what is wrong and giving an example.
Target parse_target(std::string_view text);

// Whether a measured value satisfies the target (never for NaN).
bool meets(const Target& target, double value);

std::string_view to_string(Comparator comparator);
// Normalised form without the benchmark: "verify_ms < 15", "tok_s >= 89.5", "x > 1000" (shortest
// round-trip number): how documents and verdicts say it.
std::string to_string(const Target& target);
// The same with the benchmark when it names one: "verify:verify_ms < 15" (how a plan stores it).
std::string qualified(const Target& target);

} // namespace ej::core
