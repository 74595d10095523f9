#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/numbering.h"
#include "evidence/run_set.h"
#include "measuring/workspace.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

// `ej run withdraw RUN --reason R [--undo]`: a run kept in the journal, out of every judgement and
// document (measured on the wrong machine, with a debug build, ...), or taken back into them.
namespace ej::cli {

namespace {

struct WithdrawOptions {
  std::string run;
  std::string reason;
  bool undo = false;
};

void run_withdraw(const WithdrawOptions& options)
{
  const int number = parse_run_number(options.run);
  const auto reason = checked_text(options.reason, "reason");
  if (!options.undo && reason.empty()) {
    throw UsageError(
        "say why the run is withdrawn: ej run withdraw {} --reason \"measured on a debug build\"",
        options.run);
  }
  auto journal = open_journal(measuring::locate_workspace());
  journal.write([&](store::Writer& writer) {
    const auto run = store::find_run(journal.db(), number);
    if (!run) {
      throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
    }
    const auto label = core::number_label(run->number);
    if (options.undo) {
      if (!run->withdrawn()) {
        throw Error("run {} is not withdrawn: nothing to take back", label);
      }
    } else {
      if (run->withdrawn()) {
        throw Error("{} already; 'ej run withdraw {} --undo' takes it back", evidence::withdrawn_text(*run),
                    run->number);
      }
      if (run->status == core::RunStatus::Started) {
        throw Error("run {} is still running: cancel it first ('ej cancel {}'), or wait for it to end", label,
                    run->number);
      }
      // A withdrawn baseline would leave every attempt of the plan unjudged: move it first.
      if (const auto plans = store::plans_with_current_baseline(journal.db(), run->number); !plans.empty()) {
        throw Error(
            "run {} is the current baseline of {} {} for {}: pin another first with 'ej plan baseline "
            "{} --run N --reason ...', then withdraw it",
            label, plans.size() == 1 ? "plan" : "plans", util::join(plans, ", "), run->bench, plans.front());
      }
    }
    writer.append(store::events::RunWithdrawal{options.undo, store::events::Ref::to(run->id), reason});
  });
  if (options.undo) {
    fmt::print("run {} restored: judged and in documents again\n", core::number_label(number));
  } else {
    fmt::print("run {} withdrawn: kept in the journal ('ej show run {}'), left out of judgements and "
               "documents; 'ej run withdraw {} --undo' takes it back\n",
               core::number_label(number), number, number);
  }
}

} // namespace

void register_run_withdraw(CLI::App& run)
{
  auto options = std::make_shared<WithdrawOptions>();
  auto* withdraw = run.add_subcommand(
      "withdraw", "Keep a run in the journal but out of every judgement and document (or take it back)");
  withdraw->add_option("run", options->run, "The run: 5, r5, run:5")->required();
  withdraw->add_option("--reason", options->reason, "Why (required to withdraw), e.g. \"debug build\"");
  withdraw->add_flag("--undo", options->undo, "Take a withdrawal back: the run is judged again");
  withdraw->callback([options] { run_withdraw(*options); });
}

} // namespace ej::cli
