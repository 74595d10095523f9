#pragma once

#include <string>
#include <vector>

// What the HTML report adds to the plan's document, for a browser: its attempts as a table to sort
// (click a header) and filter (by status and tag), each attempt's evidence shown on a click of its
// row, and a chart per measure and combination to pick from. One inline script, no network.
namespace ej::render {

struct ReportAttempt {
  int number = 0;
  std::string title;
  std::string status;
  std::vector<std::string> tags;
  std::vector<std::string> cells;                 // one per ReportData::columns
  std::vector<std::vector<std::string>> evidence; // rows of ReportData::evidence_columns
  std::string note;                               // what the evidence was judged against
};

struct ReportChart {
  std::string name; // "tok_s at concurrency=2"
  std::string svg;
};

struct ReportData {
  std::vector<std::string> columns;          // the attempts' values, after #, attempt and status
  std::vector<std::string> evidence_columns; // measure, at, baseline, this attempt, change, ...
  std::vector<ReportAttempt> attempts;       // in the plan's order
  std::vector<ReportChart> charts;
  std::vector<ReportChart> history; // the plan's benchmarks commit by commit, each shown (ej report)
};

// The section and its script; "" without attempts. Every text is escaped for HTML.
std::string explorer_html(const ReportData& data);

} // namespace ej::render
