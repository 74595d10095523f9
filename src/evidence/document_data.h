#pragma once

#include "render/svg_chart.h"
#include "render/template_data.h"
#include "store/journal.h"

#include <string>

// What a plan document shows, as the data given to its Mustache template (fields in README).
namespace ej::evidence {

struct DocumentData {
  render::TemplateData data; // every user text already escaped for markdown
  render::ChartData chart;   // the primary metric per attempt, baseline and target
};

// chart_file is the SVG's name relative to the document ("eagle-fast-verify.svg").
DocumentData build_document_data(store::Journal& journal, const std::string& plan,
                                 const std::string& chart_file);

} // namespace ej::evidence
