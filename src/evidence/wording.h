#pragma once

#include "measure/comparison.h"

#include <string>
#include <string_view>

// How a comparison reads, identical in the terminal, JSON text fields and documents.
namespace ej::evidence {

// What a metric measures, for the factor's words: a time gets "faster"/"slower", a rate "higher
// throughput"/"lower throughput", anything else "higher"/"lower".
enum class Quantity { Time, Rate, Other };
Quantity quantity_of(std::string_view metric, std::string_view unit);

// The estimate as the value moved: "-58.6%" (a ratio), or "+0.52 ms" (a shift, for metrics that can
// be zero or negative).
std::string change_text(const measure::Comparison& c, std::string_view unit);
// Its interval, "[-61.1%, -50.7%]" or "[+0.31 ms, +0.70 ms]"; empty without a test.
std::string interval_text(const measure::Comparison& c, std::string_view unit);
// The ratio in words: "2.42x faster", "1.45x higher throughput", "1.10x slower"; empty for a shift.
std::string factor_text(const measure::Comparison& c, Quantity quantity);
// What the outcome rests on: "p=0.00016", "single figures, no test",
// "too few samples for a test (n = 3 vs 3)".
std::string basis_text(const measure::Comparison& c);
// A value with 4 significant digits and its unit: "27.80 ms", "89.50 tok/s", "0.5".
std::string value_text(double value, std::string_view unit);

// One phrase with all of it: "-58.6% [-61.1%, -50.7%] 2.42x faster, improved (p=0.00016)";
// without a test "-41.6% 1.65x lower throughput, single figures, no test".
std::string comparison_text(const measure::Comparison& c, std::string_view unit, Quantity quantity);

} // namespace ej::evidence
