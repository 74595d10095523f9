#include "evidence/bench_json.h"

#include "core/bench_definition.h"
#include "evidence/calibration.h"
#include "store/queries.h"
#include "util/time.h"

namespace ej::evidence {

nlohmann::json bench_list_json(store::Journal& journal)
{
  auto out = nlohmann::json::array();
  for (const auto& bench : store::list_benchmarks(journal.db())) {
    out.push_back({{"name", bench.name},
                   {"revision", bench.revision},
                   {"ci", core::readable_bench_definition(bench.definition).ci},
                   {"definition", bench.definition}});
  }
  return out;
}

std::optional<nlohmann::json> bench_show_json(store::Journal& journal, const std::string& name)
{
  const auto revisions = store::bench_revisions(journal.db(), name);
  if (revisions.empty()) {
    return std::nullopt;
  }
  auto out = nlohmann::json::array();
  for (const auto& bench : revisions) {
    out.push_back({{"name", bench.name},
                   {"revision", bench.revision},
                   {"created", util::format_utc(bench.created_ms)},
                   {"ci", core::readable_bench_definition(bench.definition).ci},
                   {"definition", bench.definition}});
  }
  const auto calibration = latest_calibration(journal.db(), name, "", revisions.back().revision);
  return nlohmann::json{{"name", name},
                        {"revisions", out},
                        {"calibration", calibration ? to_json(*calibration) : nlohmann::json()}};
}

} // namespace ej::evidence
