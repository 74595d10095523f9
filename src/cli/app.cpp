#include "cli/app.h"

#include "cli/command_tree.h"
#include "cli/commands.h"
#include "cli/examples.h"
#include "cli/help.h"
#include "cli/pager.h"
#include "cli/version.h"
#include "util/term.h"

#include <cmath>
#include <cstdlib>

namespace ej::cli {

namespace {

// CLI11 lets a repeatable option swallow several words ("--tag a b") and eat a following "--".
// ej's options take one value per occurrence, so that "--metric X -- ./bench --size 4" leaves the
// benchmark's own arguments alone.
void one_value_per_option(CLI::App& app)
{
  for (auto* option : app.get_options()) {
    if (!option->get_positional()) {
      option->allow_extra_args(false);
    }
  }
  for (auto* sub : app.get_subcommands({})) {
    one_value_per_option(*sub);
  }
}

} // namespace

const CLI::Validator& finite_number()
{
  static const CLI::Validator validator(
      [](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(input.c_str(), &end);
        if (end != input.c_str() && *end == '\0' && !std::isfinite(value)) {
          return "'" + input + "' is not a finite number";
        }
        return {};
      },
      "FINITE");
  return validator;
}

// Options every command takes (ej --no-pager log, ej log --no-pager), as git's are.
void add_terminal_options(CLI::App& app)
{
  app.fallthrough(); // subcommands created after this pass options they do not know up to here
  app.add_option_function<std::string>(
         "--color", [](const std::string& when) { util::set_colour_mode(*util::parse_colour_mode(when)); },
         "Colours: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN")
      ->default_str("auto");
  app.add_flag_callback(
      "--no-pager", [] { disable_pager(); }, "Do not send long output (log, show, why) through the pager");
}

void register_commands(CLI::App& app)
{
  app.require_subcommand(1);
  app.set_version_flag(
      "-V,--version", [] { return version_text(); }, "Print the version and the commit");
  app.footer("Exit codes: 0 ok, 1 error, 2 usage. 'ej help COMMAND' for a command's options.");
  add_terminal_options(app);
  register_init(app);
  register_plan(app);
  register_attempt_commands(app);
  register_read_commands(app);
  register_why(app);
  register_bench(app);
  register_run(app);
  register_host(app);
  register_runs(app);
  register_live_runs(app);
  register_env(app);
  register_compare(app);
  register_record(app);
  register_sharing(app);
  register_checkout(app);
  register_rerun(app);
  register_maintenance(app);
  register_help(app);
  add_command_examples(app);
  show_defaults(app);
  one_value_per_option(app);
}

} // namespace ej::cli
