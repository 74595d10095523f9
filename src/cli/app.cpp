#include "cli/app.h"

#include "cli/commands.h"

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

void register_commands(CLI::App& app)
{
  app.require_subcommand(1);
  app.set_version_flag("--version", "ej 0.1.0");
  app.footer("Exit codes: 0 ok, 1 error, 2 usage. 'ej COMMAND --help' for a command's options.");
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
  one_value_per_option(app);
}

} // namespace ej::cli
