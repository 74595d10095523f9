#include "render/html_explorer.h"
#include "render/html_report.h"

#include <catch2/catch.hpp>

using namespace ej::render;

namespace {

ReportData sample()
{
  ReportData data;
  data.columns = {"tok_s (tok/s)", "change", "target"};
  data.evidence_columns = {"measure", "at", "baseline", "this attempt", "change", "interval", "outcome"};
  ReportAttempt fused;
  fused.number = 11;
  fused.title = "FlashInfer <fusion> & \"friends\"";
  fused.status = "adopted";
  fused.tags = {"allreduce", "flashinfer"};
  fused.cells = {"96.10", "+3.78%", "yes"};
  fused.evidence = {
      {"tok_s (tok/s)", "concurrency=1", "92.60", "96.10", "+3.78%", "[+3.47%, +4.09%]", "improved"}};
  fused.note = "Against serve run #7.";
  ReportAttempt tree;
  tree.number = 5;
  tree.title = "NCCL_ALGO=Tree";
  tree.status = "rejected";
  tree.tags = {"nccl"};
  tree.cells = {"—", "—", "—"};
  data.attempts = {fused, tree};
  data.charts = {{"tok_s at concurrency=1", "<svg>one</svg>"}, {"tok_s at concurrency=2", "<svg>two</svg>"}};
  return data;
}

} // namespace

TEST_CASE("The report's explorer lists the attempts with what its filters and sorting read, escaped")
{
  const auto html = explorer_html(sample());
  CHECK_THAT(html,
             Catch::Contains(
                 "<tr data-number=\"11\" data-status=\"adopted\" data-tags=\" allreduce flashinfer \">"));
  CHECK_THAT(html, Catch::Contains("<td>FlashInfer &lt;fusion&gt; &amp; &quot;friends&quot;</td>"));
  CHECK_THAT(html, Catch::Contains("<th data-type=\"number\">tok_s (tok/s)</th>"));
  CHECK_THAT(html, Catch::Contains("<input type=\"checkbox\" data-status=\"adopted\" checked> adopted"));
  CHECK_THAT(html, Catch::Contains("<input type=\"checkbox\" data-status=\"rejected\" checked> rejected"));
  CHECK(html.find("data-status=\"blocked\" checked") == std::string::npos); // no attempt is
  CHECK_THAT(html, Catch::Contains("<option value=\"nccl\">nccl</option>"));
  // Each attempt's evidence, hidden until its row is clicked; the first chart shown, the others not.
  CHECK_THAT(html, Catch::Contains("<div class=\"ej-evidence\" id=\"ej-evidence-11\" hidden>"));
  CHECK_THAT(html, Catch::Contains("<td>[+3.47%, +4.09%]</td>"));
  CHECK_THAT(html, Catch::Contains("Nothing judged"));
  CHECK_THAT(html, Catch::Contains("<div class=\"ej-chart\" data-chart=\"0\">\n<svg>one</svg>"));
  CHECK_THAT(html, Catch::Contains("<div class=\"ej-chart\" data-chart=\"1\" hidden>"));
  CHECK(explorer_html(sample()) == html); // deterministic
}

TEST_CASE("A report without attempts to explore has no explorer and no script")
{
  CHECK(explorer_html(ReportData{}).empty());
  const auto page = render_html_report("t", "# t\n", {});
  CHECK(page.find("<script") == std::string::npos);
  const auto with = render_html_report("t", "# t\n", {}, sample());
  CHECK(with.find("<script") != std::string::npos);
  CHECK(with.find("<section id=\"ej-explorer\">") > with.find("<h1>t</h1>")); // after the document
  for (const std::string outside : {"<img", "<link", "src=", "url(", "@import", "http://", "https://"}) {
    INFO(outside);
    CHECK(with.find(outside) == std::string::npos);
  }
}
