#include "cli/current_plan.h"

#include "cli/command_tree.h"
#include "cli/lookup.h"
#include "measuring/workspace.h"
#include "store/local_config.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <memory>

namespace ej::cli {

namespace {

std::vector<std::string> plan_slugs(store::Journal& journal)
{
  std::vector<std::string> slugs;
  for (const auto& plan : store::list_plans(journal.db())) {
    slugs.push_back(plan.slug);
  }
  return slugs;
}

// The current plan, when one was chosen and still exists.
std::optional<std::string> chosen_plan(store::Journal& journal)
{
  auto slug = store::current_plan(journal.db());
  if (slug && !store::find_plan(journal.db(), *slug)) {
    throw Error("the current plan '{}' is not in the journal; choose another with 'ej plan use SLUG' or "
                "clear it with 'ej plan use --clear'",
                util::visible_controls(*slug));
  }
  return slug;
}

void say_plan(const std::string& slug, std::string_view why)
{
  fmt::print(stderr, "ej: plan {} ({})\n", slug, why);
}

} // namespace

std::string choose_plan(store::Journal& journal, const std::string& given)
{
  if (!given.empty()) {
    return require_plan(journal, given).slug;
  }
  if (const auto current = chosen_plan(journal)) {
    say_plan(*current, "the current plan; change it with 'ej plan use SLUG'");
    return *current;
  }
  const auto slugs = plan_slugs(journal);
  if (slugs.size() == 1) {
    say_plan(slugs.front(), "the only plan");
    return slugs.front();
  }
  if (slugs.empty()) {
    throw Error("there are no plans yet; create one with: ej plan new SLUG --title \"...\"");
  }
  throw UsageError(
      "which plan? the journal has {} ({}): give --plan SLUG, or choose one for every command with "
      "'ej plan use SLUG'",
      slugs.size(), util::join(slugs, ", "));
}

std::optional<std::string> plan_filter(store::Journal& journal, const std::string& given)
{
  if (!given.empty()) {
    return require_plan(journal, given).slug;
  }
  if (auto current = chosen_plan(journal)) {
    say_plan(*current, "the current plan; --all-plans for every plan");
    return current;
  }
  return std::nullopt;
}

namespace {

struct UseOptions {
  std::string slug;
  bool clear = false;
};

void run_plan_use(const UseOptions& options)
{
  auto journal = open_journal(measuring::locate_workspace());
  if (journal.read_only_reason() && (options.clear || !options.slug.empty())) {
    throw Error("cannot change the current plan: {}", *journal.read_only_reason());
  }
  if (options.clear) {
    store::set_current_plan(journal.db(), std::nullopt);
    fmt::print("no current plan: commands take --plan again (or the only plan)\n");
    return;
  }
  if (options.slug.empty()) {
    const auto current = chosen_plan(journal);
    fmt::print("{}\n", current ? *current : "no current plan; choose one with: ej plan use SLUG");
    return;
  }
  const auto plan = require_plan(journal, options.slug);
  store::set_current_plan(journal.db(), plan.slug);
  fmt::print("current plan: {} (ej try, log, plan show, render, baseline and report use it when --plan or "
             "the plan is omitted)\n",
             plan.slug);
}

} // namespace

void register_plan_use(CLI::App& plan)
{
  auto options = std::make_shared<UseOptions>();
  auto* use = plan.add_subcommand(
      "use", "Choose the plan commands use when --plan is omitted (this clone only; not shared by ej sync)");
  use->add_option("slug", options->slug, "The plan; omitted: print the current plan");
  use->add_flag("--clear", options->clear, "Forget the current plan")->excludes(use->get_option("slug"));
  add_examples(*use, {"ej plan use eagle-fast-verify", "ej plan use --clear"});
  use->callback([options] { run_plan_use(*options); });
}

} // namespace ej::cli
