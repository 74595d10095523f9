#include "mcp/resources.h"

#include "core/numbering.h"
#include "core/references.h"
#include "evidence/plan_render.h"
#include "evidence/records_json.h"
#include "evidence/run_json.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <fmt/format.h>

#include <charconv>

namespace ej::mcp {

namespace {

using nlohmann::json;

constexpr std::string_view k_plan_prefix = "ej://plan/";
constexpr std::string_view k_run_prefix = "ej://run/";

int page_start(const std::string& cursor)
{
  int start = 0;
  if (cursor.empty()) {
    return 0;
  }
  const auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), start);
  if (ec != std::errc() || end != cursor.data() + cursor.size() || start < 0) {
    throw UsageError("'{}' is not a cursor resources/list gave", cursor);
  }
  return start;
}

} // namespace

json list_resources(const Context& context, const std::string& cursor)
{
  const int start = page_start(cursor);
  auto journal = measuring::open_journal_for_reading(context.workspace);
  json resources = json::array();
  const auto plans = store::list_plans(journal.db());
  const int plan_count = static_cast<int>(plans.size());
  for (int i = start; i < plan_count && static_cast<int>(resources.size()) < k_resources_per_page; ++i) {
    const auto& plan = plans[static_cast<std::size_t>(i)];
    resources.push_back(
        {{"uri", std::string(k_plan_prefix) + plan.slug},
         {"name", plan.slug},
         {"title", plan.title},
         {"description", fmt::format("the plan document of {}, as ej plan render writes it", plan.slug)},
         {"mimeType", "text/markdown"}});
  }
  // Runs after the plans, newest first: one more than the page asked, to tell whether a page follows.
  const int run_start = std::max(0, start - plan_count);
  store::RunFilter filter;
  filter.limit = run_start + k_resources_per_page + 1;
  const auto runs = store::list_runs(journal.db(), filter);
  for (std::size_t i = static_cast<std::size_t>(run_start); i < runs.size(); ++i) {
    if (static_cast<int>(resources.size()) == k_resources_per_page) {
      return {{"resources", resources}, {"nextCursor", std::to_string(start + k_resources_per_page)}};
    }
    const auto& run = runs[i];
    // A provisional run is named as ej names it until ej sync numbers it: ej://run/@k3f9qx.
    const auto name = core::number_label(run.number);
    resources.push_back({{"uri", std::string(k_run_prefix) + (name.front() == '#' ? name.substr(1) : name)},
                         {"name", name},
                         {"title", fmt::format("run {}: {} r{}, {}", name, run.bench, run.revision,
                                               core::to_string(run.status))},
                         {"mimeType", "application/json"}});
  }
  return {{"resources", resources}};
}

json resource_templates()
{
  return {{"resourceTemplates",
           {{{"uriTemplate", "ej://plan/{slug}"},
             {"name", "plan"},
             {"title", "A plan document"},
             {"description", "the plan's markdown document as ej plan render would write it"},
             {"mimeType", "text/markdown"}},
            {{"uriTemplate", "ej://run/{number}"},
             {"name", "run"},
             {"title", "A run"},
             {"description", "a run with its samples and summaries, as ej show run N --json prints it"},
             {"mimeType", "application/json"}}}}};
}

std::optional<json> read_resource(const Context& context, const std::string& uri)
{
  if (uri.starts_with(k_plan_prefix)) {
    const auto slug = uri.substr(k_plan_prefix.size());
    auto journal = measuring::open_journal(context.workspace);
    if (!store::find_plan(journal.db(), slug)) {
      return std::nullopt;
    }
    evidence::RenderRequest request;
    request.slug = slug;
    const auto rendered = evidence::render_plan(context.workspace, journal, request);
    return json{
        {"contents", {{{"uri", uri}, {"mimeType", "text/markdown"}, {"text", rendered.merged.document}}}}};
  }
  if (uri.starts_with(k_run_prefix)) {
    int number = 0;
    try {
      number = core::parse_run_number(uri.substr(k_run_prefix.size()));
    } catch (const UsageError&) {
      return std::nullopt;
    }
    auto journal = measuring::open_journal_for_reading(context.workspace);
    evidence::Reader reader(journal);
    auto shown = evidence::show_run_json(reader, number, false, false);
    if (!shown) {
      return std::nullopt;
    }
    return json{{"contents",
                 {{{"uri", uri},
                   {"mimeType", "application/json"},
                   {"text", evidence::with_schema(std::move(*shown))
                                .dump(-1, ' ', false, json::error_handler_t::replace)}}}}};
  }
  return std::nullopt;
}

} // namespace ej::mcp
