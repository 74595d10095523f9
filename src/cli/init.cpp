#include "cli/commands.h"

#include <iostream>

namespace ej::cli {

void register_init(CLI::App& app)
{
  auto* command = app.add_subcommand("init", "Create the journal (.ej/) at the root of this git work tree");
  command->callback([] { std::cout << "todo\n"; });
}

} // namespace ej::cli
