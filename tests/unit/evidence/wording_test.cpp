#include "evidence/wording.h"
#include "render/number_format.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace ej;
using evidence::Quantity;

namespace {

measure::Comparison compared(std::vector<double> reference, std::vector<double> candidate,
                             bool higher = false)
{
  measure::CompareOptions options;
  options.direction = higher ? measure::Direction::HigherIsBetter : measure::Direction::LowerIsBetter;
  return measure::compare(reference, candidate, options);
}

} // namespace

TEST_CASE("Changes are printed with three significant digits and at least one decimal")
{
  CHECK(render::format_change_percent(-58.6331) == "-58.6%");
  CHECK(render::format_change_percent(141.77) == "+141.8%");
  CHECK(render::format_change_percent(3.5213) == "+3.52%");
  CHECK(render::format_change_percent(-0.50412) == "-0.504%");
  CHECK(render::format_change_percent(9.996) == "+10.0%");
  CHECK(render::format_change_percent(0.0) == "0.0%");
  CHECK(render::format_signed_number(0.5234, 3) == "+0.523");
  CHECK(render::format_signed_number(-12.345, 3) == "-12.3");
}

TEST_CASE("A time that fell reads as faster, a throughput that rose as higher throughput")
{
  const auto faster = compared({27.8}, {11.5});
  CHECK(evidence::change_text(faster, "ms") == "-58.6%");
  CHECK(evidence::factor_text(faster, Quantity::Time) == "2.42x faster");
  CHECK(evidence::comparison_text(faster, "ms", Quantity::Time) ==
        "-58.6% 2.42x faster, single figures, no test");
  const auto higher = compared({11.5}, {27.8}, true);
  CHECK(evidence::change_text(higher, "tok/s") == "+141.7%");
  CHECK(evidence::factor_text(higher, Quantity::Rate) == "2.42x higher throughput");
  CHECK(evidence::factor_text(compared({10.0}, {11.0}), Quantity::Time) == "1.10x slower");
  CHECK(evidence::factor_text(compared({10.0}, {11.0}), Quantity::Other) == "1.10x higher");
  CHECK(evidence::factor_text(compared({10.0}, {10.001}), Quantity::Time).empty());
}

TEST_CASE("What a metric measures is read from its unit, else its name")
{
  CHECK(evidence::quantity_of("verify", "ms") == Quantity::Time);
  CHECK(evidence::quantity_of("wall_s", "s") == Quantity::Time);
  CHECK(evidence::quantity_of("bw", "GB/s") == Quantity::Rate);
  CHECK(evidence::quantity_of("tok_s", "") == Quantity::Rate);
  CHECK(evidence::quantity_of("ttft", "") == Quantity::Time);
  CHECK(evidence::quantity_of("rss", "MB") == Quantity::Other);
}

TEST_CASE("A tested comparison prints its interval, outcome and p-value")
{
  const auto c = compared({27.8, 27.9, 27.7, 28.0, 27.85, 27.75}, {11.5, 11.6, 11.4, 11.55, 11.45, 11.5});
  const auto text = evidence::comparison_text(c, "ms", Quantity::Time);
  CHECK(text.find("-58.7% [-") == 0);
  CHECK(text.find("2.42x faster, improved (p=0.0022)") != std::string::npos);
  CHECK(evidence::basis_text(c) == "p=0.0022");
  // A shift for a metric that can be zero: in its unit.
  const auto shift = compared({-1, 0, 0, 0, 1}, {5, 6, 7, 8, 9});
  CHECK(evidence::change_text(shift, "ms") == "+7.00 ms");
  CHECK(evidence::factor_text(shift, Quantity::Time).empty());
  CHECK(evidence::interval_text(shift, "ms").find("[+") == 0);
}
