#include "render/svg_history.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

using namespace ej::render;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle)
{
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// 30 commits of a benchmark that got 10% slower at the 16th, on a new driver from the 21st.
HistoryChartData stepped()
{
  HistoryChartData chart;
  chart.title = "decode: time_ms";
  chart.metric = "time_ms";
  chart.unit = "ms";
  chart.line = "main";
  for (int i = 0; i < 30; ++i) {
    const double level = i < 15 ? 100 : 110;
    chart.points.push_back({fmt::format("c{:06d}", i), level + (i % 3) - 1, level - 2, level + 2});
  }
  chart.segments = {{0, 14, 100}, {15, 29, 110}};
  chart.markers = {
      {HistoryMarkerKind::Regression, 15, "c000015", "regression in (c000014, c000015]: +10%"},
      {HistoryMarkerKind::Acknowledged, 15, "acknowledged", "acknowledged at c000015: bounds checks"},
      {HistoryMarkerKind::Environment, 20, "driver", "NVIDIA driver: 550.54 -> 560.28"},
  };
  return chart;
}

struct Label {
  double x;
  double y;
  std::string text;
};

// The text elements written in the left-anchored 11px style of the markers' labels.
std::vector<Label> marker_labels(const std::string& svg)
{
  static const std::regex label(
      R"re(<text x="([0-9.]+)" y="([0-9.]+)" font-size="11" fill="#[0-9a-f]+">([^<]*)</text>)re");
  std::vector<Label> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it) {
    if (std::stod((*it)[2]) > 48) { // below the subtitle: in the plot
      out.push_back({std::stod((*it)[1]), std::stod((*it)[2]), (*it)[3]});
    }
  }
  return out;
}

} // namespace

TEST_CASE("a history chart draws its points, the levels, and a labelled marker at each step and change")
{
  const auto svg = render_history_svg(stepped());
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"720\"", 0) == 0);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  CHECK(occurrences(svg, "<text") == occurrences(svg, "</text>"));
  CHECK(occurrences(svg, "</circle>") == 30); // every point, each with its tooltip
  CHECK_THAT(svg, Catch::Contains("<title>c000001: 100.0 ms</title>"));
  CHECK(occurrences(svg, "opacity=\"0.5\"") == 30); // every interval
  CHECK_THAT(svg, Catch::Contains("<title>level 100.0 ms from c000000 to c000014</title>"));
  CHECK_THAT(svg, Catch::Contains("<title>level 110.0 ms from c000015 to c000029</title>"));
  CHECK_THAT(svg, Catch::Contains("<title>regression in (c000014, c000015]: +10%</title>"));
  CHECK_THAT(svg, Catch::Contains("<title>acknowledged at c000015: bounds checks</title>"));
  CHECK_THAT(svg, Catch::Contains("<title>NVIDIA driver: 550.54 -&gt; 560.28</title>"));
  const auto labels = marker_labels(svg);
  std::vector<std::string> texts;
  for (const auto& l : labels) {
    texts.push_back(l.text);
  }
  CHECK(texts == std::vector<std::string>{"c000015", "acknowledged", "driver"});
  // The step's two labels share its line: one row each.
  CHECK(labels[0].y != labels[1].y);
  for (const auto* entry :
       {">median, 95% interval<", ">level<", ">regression<", ">acknowledged<", ">environment changed<"}) {
    CHECK_THAT(svg, Catch::Contains(entry));
  }
  CHECK_THAT(svg, !Catch::Contains(">other step<")); // only what is drawn is in the legend
  CHECK_THAT(svg, Catch::Contains(">median time_ms per commit along main, lower is better</text>"));
  CHECK(render_history_svg(stepped()) == svg); // deterministic
}

TEST_CASE("a history chart's marker labels never overlap nor leave the plot, however crowded")
{
  auto chart = stepped();
  chart.markers.clear();
  for (std::size_t i = 1; i < 30; ++i) { // a marker before every point: far more than fits
    chart.markers.push_back({HistoryMarkerKind::Step, i, fmt::format("c{:06d}", i), "step"});
  }
  chart.markers.push_back({HistoryMarkerKind::Environment, 29, "host, driver, CUDA, clocks", "all of it"});
  const auto svg = render_history_svg(chart);
  CHECK(occurrences(svg, "<title>step</title>") == 29); // every line is drawn, labelled or not
  const auto labels = marker_labels(svg);
  REQUIRE(labels.size() >= 6);
  CHECK(labels.size() < 30);
  std::map<double, std::vector<Label>> rows;
  for (const auto& label : labels) {
    const double width = static_cast<double>(label.text.size()) * 6.5;
    CHECK(label.x >= 72);              // the plot's left edge
    CHECK(label.x + width <= 616 + 1); // and its right one
    rows[label.y].push_back(label);
  }
  CHECK(rows.size() <= 3);
  for (const auto& [y, row] : rows) {
    for (std::size_t a = 0; a < row.size(); ++a) {
      for (std::size_t b = a + 1; b < row.size(); ++b) {
        INFO(row[a].text << " and " << row[b].text);
        const bool apart = row[a].x + static_cast<double>(row[a].text.size()) * 6.5 <= row[b].x ||
                           row[b].x + static_cast<double>(row[b].text.size()) * 6.5 <= row[a].x;
        CHECK(apart);
      }
    }
  }
}

TEST_CASE("a history chart with no point is an empty frame")
{
  HistoryChartData chart;
  chart.title = "decode: time_ms";
  chart.metric = "time_ms";
  const auto svg = render_history_svg(chart);
  CHECK_THAT(svg, Catch::Contains("no results yet"));
  CHECK(occurrences(svg, "<circle") == 0);
}
