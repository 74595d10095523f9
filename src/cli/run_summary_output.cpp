#include "cli/run_summary_output.h"

#include "core/numbering.h"
#include "evidence/reader.h"
#include "evidence/run_summary.h"
#include "evidence/series.h"
#include "store/run_queries.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::cli {

void print_run_summary(store::Journal& journal, int number)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    return;
  }
  const auto repeats = store::run_repeats(journal.db(), number);
  // A repeat cut short by the interruption measured nothing: it is said apart, so that the count
  // agrees with the n of the summary below.
  std::size_t measured = 0;
  std::size_t cut_short = 0;
  for (const auto& repeat : repeats) {
    if (!repeat.warmup) {
      (repeat.ending == "interrupted" ? cut_short : measured) += 1;
    }
  }
  fmt::print("run {} {} {}: {} repeat(s){}{}\n", core::number_label(run->number), run->bench, run->status,
             measured, cut_short > 0 ? fmt::format(" and {} cut short", cut_short) : "",
             run->reason.empty() ? "" : " — " + util::first_line(run->reason, 200));
  evidence::Reader reader(journal);
  // Row by row into series: a run of millions of samples costs 8 bytes a value here.
  evidence::SeriesBuilder series;
  store::visit_run_samples(journal.db(), number, [&series](const store::SampleView& sample) {
    series.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  fmt::print("{}", evidence::run_summary_text(series.take(), reader.rules(run->bench, run->revision)));
}

} // namespace ej::cli
