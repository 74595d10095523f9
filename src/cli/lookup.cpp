#include "cli/lookup.h"

#include "cli/usage.h"
#include "core/numbering.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::cli {

namespace {

// "did you mean 'x'?" among the names, else where to see them.
std::string what_to_do(const std::string& given, const std::vector<std::string>& names,
                       std::string_view listing)
{
  const auto suggestion = did_you_mean(given, names);
  return suggestion.empty() ? fmt::format("see '{}'", listing) : suggestion;
}

} // namespace

core::Plan require_plan(store::Journal& journal, const std::string& slug)
{
  if (auto plan = store::find_plan(journal.db(), slug)) {
    return *plan;
  }
  std::vector<std::string> slugs;
  for (const auto& plan : store::list_plans(journal.db())) {
    slugs.push_back(plan.slug);
  }
  throw Error("no plan named '{}'; {}", util::visible_controls(slug),
              what_to_do(slug, slugs, "ej plan list"));
}

core::BenchRevision require_benchmark(store::Journal& journal, const std::string& name)
{
  if (auto bench = store::find_benchmark(journal.db(), name)) {
    return *bench;
  }
  std::vector<std::string> names;
  for (const auto& bench : store::list_benchmarks(journal.db())) {
    names.push_back(bench.name);
  }
  throw Error("no benchmark named '{}'; {}", util::visible_controls(name),
              what_to_do(name, names, "ej bench list"));
}

core::Attempt require_attempt(store::Journal& journal, int number)
{
  if (auto attempt = store::find_attempt(journal.db(), number)) {
    return *attempt;
  }
  throw Error("there is no attempt {}; see 'ej log' for the attempts", core::number_label(number));
}

} // namespace ej::cli
