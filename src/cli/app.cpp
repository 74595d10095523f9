#include "cli/app.h"

#include "cli/commands.h"

namespace ej::cli {

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
  register_runs(app);
  register_env(app);
  register_compare(app);
  register_record(app);
  register_maintenance(app);
}

} // namespace ej::cli
