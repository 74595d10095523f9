#include "render/html_report.h"
#include "render/svg_chart.h"

#include "support/browser.h"
#include "support/skip.h"
#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include "util/strings.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace ej::render;

TEST_CASE("a headless browser shows the HTML report with its table and chart")
{
  const auto chromium = ej::test::find_chromium();
  if (chromium.empty()) {
    EJ_SKIP_WITHOUT_SERVICE("chromium not installed");
  }
  ChartData chart;
  chart.title = "throughput";
  chart.metric = "tok/s";
  chart.points = {{"#1", 54.1, std::nullopt, std::nullopt, ej::core::Status::Rejected},
                  {"#2", 96.1, std::nullopt, std::nullopt, ej::core::Status::Adopted}};
  chart.baseline = 89.5;
  const std::string markdown =
      "# Report\n\n| attempt | tok/s |\n|---|---|\n| #2 | 96.1 |\n\n![chart](chart:t)\n";

  ej::test::TempDir dir("ej-browser");
  const auto page = dir / "report.html";
  ej::test::write_text(page, render_html_report("Report", markdown, {{"chart:t", render_chart_svg(chart)}}));
  const std::vector<std::string> common{chromium.string(), "--headless",
                                        "--no-sandbox",    "--disable-gpu",
                                        "--no-first-run",  "--user-data-dir=" + (dir / "profile").string()};
  ej::test::CommandOptions options;
  options.env["HOME"] = dir.path().string();

  auto dump = common;
  dump.push_back("--dump-dom");
  dump.push_back("file://" + page.string());
  const auto result = ej::test::run_command(dump, options);
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  // What the browser built from the page: the parsed DOM, with the SVG as a real element.
  CHECK_THAT(result.out, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(result.out, Catch::Contains("<circle"));
  CHECK_THAT(result.out, Catch::Contains("<td>96.1</td>"));
  CHECK(result.out.find("parsererror") == std::string::npos);

  auto shot = common;
  shot.push_back("--screenshot=" + (dir / "report.png").string());
  shot.push_back("--window-size=1000,900");
  shot.push_back("file://" + page.string());
  const auto screenshot = ej::test::run_command(shot, options);
  CHECK(screenshot.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "report.png"));
  CHECK(std::filesystem::file_size(dir / "report.png") > 1000);
}
