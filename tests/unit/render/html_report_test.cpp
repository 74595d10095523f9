#include "render/html_report.h"
#include "render/svg_chart.h"

#include <catch2/catch.hpp>

#include <regex>

using namespace ej::render;

namespace {

std::string sample_svg()
{
  ChartData chart;
  chart.title = "verify pass";
  chart.metric = "verify_ms";
  chart.unit = "ms";
  chart.higher_is_better = false;
  chart.points = {{"#1", 21.5, 20.0, 23.0, ej::core::Status::Rejected},
                  {"#2", 14.2, 13.9, 14.6, ej::core::Status::Adopted}};
  chart.target = 15;
  return render_chart_svg(chart);
}

const std::string k_markdown =
    "# EAGLE fast verify\n\n"
    "Written by hand, with <script>alert(1)</script> raw HTML.\n\n"
    "<!-- ej:begin attempts -->\n"
    "| # | title | verify ms |\n|---|---|---:|\n| 1 | FlashInfer \\| fusion | 21.5 |\n"
    "<!-- ej:end attempts -->\n\n"
    "![verify chart](chart:verify)\n\n"
    "![remote](https://example.com/x.png) and [a link](https://example.com/doc)\n";

} // namespace

TEST_CASE("the HTML report is one page with the table and the chart inline")
{
  const auto html = render_html_report("EAGLE <fast> verify", k_markdown, {{"chart:verify", sample_svg()}});
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(html, Catch::Contains("<title>EAGLE &lt;fast&gt; verify</title>"));
  CHECK_THAT(html, Catch::Contains("<table>"));
  CHECK_THAT(html, Catch::Contains("<td>FlashInfer | fusion</td>"));
  CHECK_THAT(html, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(html, Catch::Contains("<style>"));
  CHECK(html.find("chart:verify") == std::string::npos);
}

TEST_CASE("the HTML report loads nothing from outside and runs no script")
{
  const auto html = render_html_report("t", k_markdown, {{"chart:verify", sample_svg()}});
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("ej:begin") == std::string::npos);
  CHECK_THAT(html, Catch::Contains("[remote]"));
  // The only http(s) texts are the SVG namespace and the link the author wrote (not a resource).
  const std::regex url(R"(https?://[^"'<> ]*)");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it) {
    const auto found = it->str();
    CHECK((found == "http://www.w3.org/2000/svg" || found == "https://example.com/doc"));
  }
}

TEST_CASE("the same inputs give the same HTML bytes")
{
  const std::map<std::string, std::string> svgs{{"chart:verify", sample_svg()}};
  CHECK(render_html_report("t", k_markdown, svgs) == render_html_report("t", k_markdown, svgs));
}

TEST_CASE("a markdown text that happens to contain the placeholder is not mistaken for a chart")
{
  const std::string markdown = "EJSVGSLOT0Z and EJSVGSLOTX0Z\n\n![c](chart:a)\n";
  const auto html = render_html_report("t", markdown, {{"chart:a", "<svg>A</svg>"}});
  CHECK_THAT(html, Catch::Contains("EJSVGSLOT0Z and EJSVGSLOTX0Z"));
  CHECK_THAT(html, Catch::Contains("<svg>A</svg>"));
}
