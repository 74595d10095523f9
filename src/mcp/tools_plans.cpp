#include "mcp/objects.h"
#include "mcp/tool.h"

#include "evidence/lookup.h"
#include "evidence/plan_render.h"
#include "evidence/records_json.h"

#include <fmt/format.h>

// The tools of plans: plan_render.
namespace ej::mcp {

namespace {

using nlohmann::json;
using namespace schema;

Answer plan_render_tool(const Arguments& args, const Context& context)
{
  auto journal = measuring::open_journal(context.workspace);
  evidence::RenderRequest request;
  request.slug = evidence::choose_plan(journal, args.text("plan"));
  request.force = args.flag("force");
  request.writes = !args.flag("check");
  const auto rendered = evidence::render_plan(context.workspace, journal, request);
  const bool up_to_date = evidence::up_to_date(rendered);
  if (!args.flag("check")) {
    evidence::write_document(journal, rendered, context.build_identity);
  }
  auto out =
      evidence::render_json(request.slug, rendered, args.flag("check"), up_to_date, !args.flag("check"));
  const auto text =
      args.flag("check")
          ? fmt::format("{} is {}", rendered.relative,
                        up_to_date ? "up to date" : "not what render would write")
          : fmt::format("wrote {}{}", rendered.relative, up_to_date ? " (it was up to date)" : "");
  return {evidence::with_schema(std::move(out)), text};
}

} // namespace

void add_plan_tools(std::vector<Tool>& tools)
{
  tools.push_back(
      {"plan_render", "Render a plan's document",
       "Write the plan's markdown document and its SVG charts from the journal (ej plan render "
       "--json); with check, only say whether the files are up to date. Regions edited by hand are "
       "kept unless force.",
       arguments({{"plan", string("the plan's slug (default: the current plan, or the only one)")},
                  {"check", boolean("write nothing: say whether the files are what render writes")},
                  {"force", boolean("overwrite regions edited by hand")}}),
       objects::rendered(), false, false, plan_render_tool});
}

} // namespace ej::mcp
