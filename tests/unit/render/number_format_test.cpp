#include "render/number_format.h"
#include "support/skip.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

using namespace ej::render;

TEST_CASE("numbers keep the requested significant digits without losing integer digits")
{
  CHECK(format_number(92.6123, 3) == "92.6");
  CHECK(format_number(89.5, 4) == "89.50");
  CHECK(format_number(2.0, 3) == "2.00");
  CHECK(format_number(1234.6, 3) == "1235");
  CHECK(format_number(1234.5, 3) == "1234"); // exact ties round to even, as printf does
  CHECK(format_number(0.012345, 2) == "0.012");
  CHECK(format_number(9.996, 3) == "10.0");
  CHECK(format_number(-54.149, 3) == "-54.1");
  CHECK(format_number(0.0, 3) == "0.00");
  CHECK(format_number(-0.0001, 1) == "-0.0001");
  CHECK(format_number(-0.0, 2) == "0.0");
  CHECK(format_number(1.5e-7, 3) == "1.50e-07");
  CHECK(format_number(2.5e18, 2) == "2.5e+18");
  CHECK(format_number(std::nan(""), 3) == "nan");
  CHECK(format_number(-std::numeric_limits<double>::infinity(), 3) == "-inf");
}

TEST_CASE("numbers whose rounding carries into a new digit, or that need leading zeros, keep their digits")
{
  CHECK(format_number(9.9996, 4) == "10.00");
  CHECK(format_number(-9.9996, 4) == "-10.00");
  CHECK(format_number(99.96, 3) == "100");
  CHECK(format_number(999.6, 3) == "1000");
  CHECK(format_number(0.0009996, 3) == "0.00100");
  CHECK(format_number(9.5, 1) == "10");
  CHECK(format_number(7.0, 1) == "7");
  CHECK(format_number(0.25, 1) == "0.2"); // an exact tie, to even
  CHECK(format_number(-0.000001234, 3) == "-0.00000123");
  CHECK(format_number(999999999999999.4, 15) == "999999999999999");
  CHECK(format_number(999999999999999.6, 15) == "1.00000000000000e+15");
  CHECK(format_number(10.05, 4) == "10.05");
  CHECK(format_number(12345678.9, 4) == "12345679");
}

namespace {

// format_number as printf's %.*e and %.*f give it, through fmt: the reference its faster path must
// equal byte for byte.
std::string format_number_by_printf(double value, int significant)
{
  const auto scientific = fmt::format("{:.{}e}", value, significant - 1);
  const int exponent = std::stoi(scientific.substr(scientific.find('e') + 1));
  if (exponent < -6 || exponent >= 15) {
    return scientific;
  }
  return fmt::format("{:.{}f}", value, std::max(0, significant - 1 - exponent));
}

} // namespace

TEST_CASE("numbers are written as printf's %.*f writes them at the decimals their digits need")
{
  std::mt19937_64 random(31);
  std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
  std::uniform_int_distribution<int> exponent(-8, 17);
  std::uniform_int_distribution<int> digits(1, 17);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < 200000; ++i) {
    double value = mantissa(random) * std::pow(10.0, exponent(random));
    if (i % 4 == 0) { // short decimals, where ties and carries happen
      value = std::round(value * 1000) / 1000;
    }
    if (i % 16 == 1) { // any finite double
      const auto raw = bits(random);
      std::memcpy(&value, &raw, sizeof value);
    }
    if (!std::isfinite(value) || value == 0) { // written apart: "nan", "0.000"
      continue;
    }
    const int significant = i % 2 == 0 ? 4 : digits(random);
    INFO(fmt::format("{:.17g} with {} digits", value, significant));
    REQUIRE(format_number(value, significant) == format_number_by_printf(value, significant));
  }
}

TEST_CASE("percentages carry an explicit sign and zero carries none")
{
  CHECK(format_percent(3.46) == "+3.5%");
  CHECK(format_percent(-12.0) == "-12.0%");
  CHECK(format_percent(0.04) == "0.0%");
  CHECK(format_percent(-0.04) == "0.0%");
  CHECK(format_percent(77.63, 0) == "+78%");
  CHECK(format_percent(std::nan("")) == "n/a");
}

TEST_CASE("relative change is measured against the baseline and undefined for a zero baseline")
{
  REQUIRE(relative_change_percent(54.1, 96.1).has_value());
  CHECK(format_percent(*relative_change_percent(54.1, 96.1)) == "+77.6%");
  CHECK(*relative_change_percent(-10.0, -5.0) == Approx(50.0));
  CHECK_FALSE(relative_change_percent(0.0, 1.0).has_value());
}

TEST_CASE("number formatting ignores the process locale")
{
  const char* previous = std::setlocale(LC_ALL, nullptr);
  const std::string saved = previous != nullptr ? previous : "C";
  if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr && std::setlocale(LC_ALL, "fr_FR.UTF-8") == nullptr) {
    EJ_SKIP_WITHOUT_SERVICE("no German or French locale installed (locales-all)");
  }
  CHECK(format_number(1234.5, 6) == "1234.50");
  CHECK(format_percent(3.46) == "+3.5%");
  std::setlocale(LC_ALL, saved.c_str());
}

TEST_CASE("numbers too long for the digit buffer are written in full")
{
  const auto huge = format_percent(std::ldexp(1.0, 700)); // 2^700: 211 digits, exactly
  CHECK(huge.size() == 215);                              // "+", 211 digits, ".0", "%"
  CHECK(huge.substr(0, 5) == "+5260");
  CHECK(huge.substr(huge.size() - 7) == "1376.0%");
  CHECK(format_number(-1e14, 17) == "-100000000000000.00");
  CHECK(format_number(123456.0, 17) == "123456.00000000000");
}
