#pragma once

#include "core/records.h"
#include "evidence/evaluation.h"
#include "evidence/plan_measures.h"
#include "evidence/reader.h"
#include "render/template_data.h"

#include <optional>

namespace ej::evidence::document {

// An attempt's section of a plan document, frozen (render/frozen_data.h): its status and reason,
// hypothesis, links, its evidence said once as a table (metric x combination: baseline, this
// attempt, change, interval, outcome) with a line on what it was judged against, its runs (each
// named by number, label, date, commit and its values at the headline combination) and notes.
// Fields in docs/documents.md.
render::TemplateData attempt_section(Reader& reader, const core::AttemptHistory& history,
                                     const std::optional<Evaluation>& evaluation,
                                     const PlanMeasures& measures);

// The evidence table's header and rows, unescaped: metric (its first row only), combination,
// baseline, this attempt, change, interval, outcome.
const std::vector<std::string>& evidence_columns();
std::vector<std::vector<std::string>> evidence_rows(const Evaluation& evaluation);
// What the evidence was judged against and what it does not say, unescaped; "" without a verdict.
std::string evidence_note(const Evaluation& evaluation);

} // namespace ej::evidence::document
