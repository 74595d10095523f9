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
    const auto current = evidence::chosen_plan(journal);
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
