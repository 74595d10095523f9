#include "cli/app.h"

#include "cli/commands.h"

namespace ej::cli {

void register_commands(CLI::App& app)
{
  app.require_subcommand(1);
  app.set_version_flag("--version", "ej 0.1.0");
  register_init(app);
}

} // namespace ej::cli
