#include "cli/commands.h"
#include "cli/version.h"
#include "mcp/server.h"
#include "util/error.h"

#include <filesystem>
#include <memory>
#include <string>

// `ej mcp`: the MCP server for agents (src/mcp/, docs/mcp.md); the command line only starts it.
namespace ej::cli {

void register_mcp(CLI::App& app)
{
  auto directory = std::make_shared<std::string>();
  auto* mcp = app.add_subcommand(
      "mcp", "Serve the Model Context Protocol on stdin and stdout, for agents: ej's tools and resources in "
             "this repository, every call within EJ_MCP_MAX_S seconds (default 10); see docs/mcp.md");
  mcp->add_option("-C", *directory,
                  "Serve the repository of DIR, as if started there (for clients that start servers "
                  "elsewhere): ej mcp -C ~/src/llm-serving");
  mcp->footer(
      "\nAn MCP client starts it; configure it as a command, e.g. for Claude Code:\n"
      "  claude mcp add ej -- ej mcp\n"
      "Environment: EJ_MCP_MAX_S=10 the longest any call takes (a run goes on detached; wait follows it).");
  mcp->callback([directory] {
    if (!directory->empty()) {
      std::error_code ec;
      std::filesystem::current_path(*directory, ec);
      if (ec) {
        throw Error("cannot serve {}: {}; give ej mcp -C an existing directory of the repository", *directory,
                    ec.message());
      }
    }
    const int code = mcp::serve({version_text(), build_identity()});
    if (code != 0) {
      throw ExitCode{code};
    }
  });
}

} // namespace ej::cli
