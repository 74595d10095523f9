#include "cli/commands.h"
#include "cli/output.h"
#include "cli/workspace.h"
#include "core/slug.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

struct NewOptions {
  std::string slug;
  std::string title;
  std::string goal;
  std::string target;
  std::string doc;
};

void run_plan_new(const NewOptions& options)
{
  core::validate_slug(options.slug, "plan slug");
  const auto title = checked_text(options.title, "plan title", false);
  const auto goal = checked_text(options.goal, "goal");
  const auto target = checked_text(options.target, "target");
  const auto doc = options.doc.empty() ? "journal/" + options.slug + ".md" : options.doc;
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  journal.write([&](store::Writer& writer) {
    if (store::find_plan(journal.db(), options.slug)) {
      throw Error("a plan named '{}' already exists; see 'ej plan show {}'", options.slug, options.slug);
    }
    writer.append("plan.created",
                  {{"slug", options.slug}, {"title", title}, {"goal", goal}, {"target", target}, {"doc", doc}});
  });
  fmt::print("created plan {} ({})\n", options.slug, doc);
}

struct ListOptions {
  bool json = false;
};

void run_plan_list(const ListOptions& options)
{
  auto journal = open_journal(locate_workspace());
  const auto plans = store::list_plans(journal.db());
  if (options.json) {
    auto out = nlohmann::json::array();
    for (const auto& plan : plans) {
      out.push_back(to_json(plan));
    }
    print_json(out);
    return;
  }
  if (plans.empty()) {
    fmt::print("no plans yet; create one with: ej plan new SLUG --title \"...\"\n");
    return;
  }
  for (const auto& plan : plans) {
    fmt::print("{:<24} {:>4} attempts  {}\n", paint(plan.slug, Colour::Bold), plan.attempt_count, plan.title);
  }
}

struct ShowOptions {
  std::string slug;
  bool json = false;
};

void run_plan_show(const ShowOptions& options)
{
  auto journal = open_journal(locate_workspace());
  const auto plan = store::find_plan(journal.db(), options.slug);
  if (!plan) {
    throw Error("no plan named '{}'; see 'ej plan list'", options.slug);
  }
  store::AttemptFilter filter;
  filter.plan = plan->slug;
  auto attempts = store::list_attempts(journal.db(), filter);
  std::reverse(attempts.begin(), attempts.end());
  if (options.json) {
    auto out = to_json(*plan);
    auto& list = out["attempt_list"] = nlohmann::json::array();
    for (const auto& attempt : attempts) {
      list.push_back(to_json(attempt));
    }
    print_json(out);
    return;
  }
  fmt::print("{} {}\n", paint(plan->slug, Colour::Bold), plan->title);
  if (!plan->goal.empty()) {
    fmt::print("goal:     {}\n", indent_continuation(plan->goal, "          "));
  }
  if (!plan->target.empty()) {
    fmt::print("target:   {}\n", plan->target);
  }
  fmt::print("document: {}\ncreated:  {}\n", plan->doc_path, util::format_utc(plan->created_ms));
  fmt::print("\n{} attempt(s)\n", attempts.size());
  for (const auto& attempt : attempts) {
    fmt::print("  #{:<5} {:<13} {}\n", attempt.number, paint_status(attempt.status), attempt.title);
  }
}

} // namespace

void register_plan(CLI::App& app)
{
  auto* plan = app.add_subcommand("plan", "Create, list and show plans (campaigns of attempts)");
  plan->require_subcommand(1);

  auto new_options = std::make_shared<NewOptions>();
  auto* create = plan->add_subcommand("new", "Create a plan");
  create->add_option("slug", new_options->slug, "Short name: lowercase letters, digits, dashes")->required();
  create->add_option("--title", new_options->title, "Title of the plan")->required();
  create->add_option("--goal", new_options->goal, "What the campaign tries to achieve");
  create->add_option("--target", new_options->target, "Break-even rule, e.g. \"verify_ms < 15\"");
  create->add_option("--doc", new_options->doc, "Path of the plan document (default journal/SLUG.md)");
  create->callback([new_options] { run_plan_new(*new_options); });

  auto list_options = std::make_shared<ListOptions>();
  auto* list = plan->add_subcommand("list", "List the plans");
  list->add_flag("--json", list_options->json, "Print JSON");
  list->callback([list_options] { run_plan_list(*list_options); });

  auto show_options = std::make_shared<ShowOptions>();
  auto* show = plan->add_subcommand("show", "Show a plan and its attempts");
  show->add_option("slug", show_options->slug, "The plan")->required();
  show->add_flag("--json", show_options->json, "Print JSON");
  show->callback([show_options] { run_plan_show(*show_options); });
}

} // namespace ej::cli
