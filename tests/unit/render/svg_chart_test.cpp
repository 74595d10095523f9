#include "render/svg_chart.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

using namespace ej::render;

namespace {

std::size_t count(const std::string& text, const std::string& needle)
{
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

ChartData eagle_chart()
{
  ChartData chart;
  chart.title = "Speculative decoding <EAGLE-3> & friends";
  chart.metric = "throughput";
  chart.unit = "tok/s";
  chart.points = {{"#1", 54.1, 53.0, 55.2, ej::core::Status::Rejected},
                  {"#2", 60.3, std::nullopt, std::nullopt, ej::core::Status::Blocked},
                  {"#3", 96.1, 95.0, 97.4, ej::core::Status::Adopted}};
  chart.baseline = 89.5;
  chart.target = 92.6;
  return chart;
}

// Every number in the SVG is finite and every element that opens is closed.
void check_well_formed(const std::string& svg)
{
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"720\" height=\"360\" "
                  "viewBox=\"0 0 720 360\"",
                  0) == 0);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
  CHECK(count(svg, "<svg") == count(svg, "</svg>"));
  CHECK(count(svg, "<text") == count(svg, "</text>"));
  CHECK(count(svg, "<title") == count(svg, "</title>"));
}

} // namespace

TEST_CASE("a chart draws every point, its interval, the baseline and the target")
{
  const auto svg = render_chart_svg(eagle_chart());
  check_well_formed(svg);
  CHECK(count(svg, "</circle>") == 3); // the points (the legend's circles have no title)
  CHECK(count(svg, "<circle") == 3 + 3);
  CHECK(count(svg, "stroke-dasharray") == 2 + 2); // the lines, and their legend entries
  CHECK_THAT(svg, Catch::Contains(">baseline 89.50</text>"));
  CHECK_THAT(svg, Catch::Contains(">target 92.60</text>"));
  CHECK_THAT(svg, Catch::Contains(">median throughput per attempt, higher is better</text>"));
  CHECK(count(svg, "tok/s</text>") == 1);      // the unit, once: along the y axis
  CHECK_THAT(svg, Catch::Contains("#2e7d32")); // adopted is green
  CHECK_THAT(svg, Catch::Contains("#c62828")); // rejected is red
  CHECK_THAT(svg, Catch::Contains("<title>#3: 96.10 tok/s (adopted)</title>"));
}

TEST_CASE("chart text is escaped for XML")
{
  const auto svg = render_chart_svg(eagle_chart());
  CHECK_THAT(svg, Catch::Contains("Speculative decoding &lt;EAGLE-3&gt; &amp; friends"));
  CHECK(svg.find("<EAGLE") == std::string::npos);
  CHECK(escape_xml("a\"b'c\x01") == "a&quot;b&apos;c ");
}

TEST_CASE("the same chart data gives identical bytes")
{
  CHECK(render_chart_svg(eagle_chart()) == render_chart_svg(eagle_chart()));
}

TEST_CASE("a chart with no points says there are no results yet")
{
  ChartData chart;
  chart.title = "empty";
  chart.metric = "verify_ms";
  chart.higher_is_better = false;
  const auto svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK_THAT(svg, Catch::Contains("no results yet"));
  CHECK_THAT(svg, Catch::Contains("lower is better"));
  CHECK(count(svg, "</circle>") == 0);
}

TEST_CASE("one point, or points all equal, draw without dividing by zero")
{
  ChartData chart;
  chart.metric = "verify_ms";
  chart.points = {{"#1", 15.0, std::nullopt, std::nullopt, std::nullopt}};
  auto svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK(count(svg, "</circle>") == 1);
  chart.points.push_back({"#2", 15.0, 15.0, 15.0, std::nullopt});
  chart.baseline = 15.0;
  svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK(count(svg, "</circle>") == 2);
  chart.points = {{"#1", 0.0, std::nullopt, std::nullopt, std::nullopt}};
  chart.baseline.reset();
  check_well_formed(render_chart_svg(chart));
}

TEST_CASE("a thousand points are all drawn but their labels are thinned")
{
  ChartData chart;
  chart.metric = "latency";
  chart.unit = "us";
  for (int i = 0; i < 1000; ++i) {
    chart.points.push_back(
        {fmt::format("#{}", i + 1), 100.0 + (i % 17) * 0.25, std::nullopt, std::nullopt, std::nullopt});
  }
  const auto svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK(count(svg, "</circle>") == 1000);
  const auto labels = count(svg, "text-anchor=\"middle\" font-size=\"11\"");
  CHECK(labels >= 5);
  CHECK(labels <= 15);
  CHECK_THAT(svg, Catch::Contains(">#1</text>"));
}

TEST_CASE("non-finite values are left out of the chart")
{
  ChartData chart;
  chart.metric = "x";
  chart.points = {{"#1", std::numeric_limits<double>::quiet_NaN(), std::nullopt, std::nullopt, std::nullopt},
                  {"#2", 3.0, std::nullopt, std::numeric_limits<double>::infinity(), std::nullopt}};
  const auto svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK(count(svg, "</circle>") == 1);
}

TEST_CASE("no line joins the points: each attempt is a point of its own, also over a sweep")
{
  ChartData chart;
  chart.metric = "x";
  chart.points = {{"#1 size=1", 10.0, std::nullopt, std::nullopt, std::nullopt},
                  {"#1 size=2", 20.0, std::nullopt, std::nullopt, std::nullopt},
                  {"#2 size=1", 9.0, std::nullopt, std::nullopt, std::nullopt},
                  {"#2 size=2", 8.0, std::nullopt, std::nullopt, std::nullopt}};
  const auto svg = render_chart_svg(chart);
  check_well_formed(svg);
  CHECK(count(svg, "<polyline") == 0);
  CHECK(count(svg, "<path") == 0);
  CHECK(count(svg, "<circle") == 4 + 1); // and the legend's one colour
}

namespace {

// The value of attribute `name` of the <text> element whose content is `content`.
double text_attribute(const std::string& svg, const std::string& content, const std::string& name)
{
  const auto end = svg.find(">" + content + "</text>");
  REQUIRE(end != std::string::npos);
  const auto start = svg.rfind("<text", end);
  const auto at = svg.find(" " + name + "=\"", start);
  REQUIRE(at < end);
  return std::stod(svg.substr(at + name.size() + 3));
}

} // namespace

TEST_CASE("the legend names every status colour drawn, and the reference lines")
{
  const auto svg = render_chart_svg(eagle_chart());
  for (const auto* entry :
       {">adopted</text>", ">rejected</text>", ">blocked</text>", ">baseline</text>", ">target</text>"}) {
    INFO(entry);
    CHECK(count(svg, entry) == 1);
  }
  CHECK(count(svg, ">superseded</text>") == 0); // not drawn, not named
  // The legend is below the x labels, and its entries do not overlap.
  const double adopted = text_attribute(svg, "adopted", "x");
  const double rejected = text_attribute(svg, "rejected", "x");
  const double blocked = text_attribute(svg, "blocked", "x");
  CHECK(text_attribute(svg, "adopted", "y") > text_attribute(svg, "#1", "y") + 12);
  CHECK(rejected > adopted + 7 * 6.5);
  CHECK(blocked > rejected + 8 * 6.5);
}

TEST_CASE("the baseline and target labels sit beside the plot, apart even when the values are close")
{
  auto chart = eagle_chart();
  chart.baseline = 90.0;
  chart.target = 90.2;
  const auto svg = render_chart_svg(chart);
  const double baseline_y = text_attribute(svg, "baseline 90.00", "y");
  const double target_y = text_attribute(svg, "target 90.20", "y");
  CHECK(std::abs(baseline_y - target_y) >= 13);
  // Right of the plot's frame (72 + 544): no point or line is under them.
  CHECK(text_attribute(svg, "baseline 90.00", "x") > 616);
  CHECK(text_attribute(svg, "target 90.20", "x") > 616);
}

TEST_CASE("x labels are thinned so that long ones never overlap")
{
  ChartData chart;
  chart.metric = "x";
  for (int i = 0; i < 40; ++i) {
    chart.points.push_back({fmt::format("#{} size=4096", i + 1), 1.0 + i, std::nullopt, std::nullopt,
                            ej::core::Status::Rejected});
  }
  const auto svg = render_chart_svg(chart);
  std::vector<double> xs;
  for (int i = 0; i < 40; ++i) {
    const auto label = fmt::format(">#{} size=4096</text>", i + 1);
    if (svg.find(label) != std::string::npos) {
      xs.push_back(text_attribute(svg, label.substr(1, label.size() - 8), "x"));
    }
  }
  REQUIRE(xs.size() >= 2);
  for (std::size_t i = 1; i < xs.size(); ++i) {
    CHECK(xs[i] - xs[i - 1] >= 12 * 6.5); // "#10 size=4096" is 13 characters wide
  }
}
