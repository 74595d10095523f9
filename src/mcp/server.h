#pragma once

#include <string>

// `ej mcp`: a Model Context Protocol server on stdin and stdout (JSON-RPC 2.0, one message per
// line), for the repository it is started in. Its tools answer with the objects ej's --json
// outputs print (docs/json.md), computed by the same code; its resources are the plan documents
// and the runs. No call outlives its bound (EJ_MCP_MAX_S, 10 s by default): work that takes longer
// goes on detached (run, then wait), and a call that would take longer says so instead of hanging.
// Nothing but protocol messages is written to stdout: ej's own lines, and those of whatever it
// starts, go to stderr.
namespace ej::mcp {

struct ServerOptions {
  std::string version;        // serverInfo.version: "ej 0.1.0 (commit ...)"
  std::string build_identity; // tells this build's verdict lines from another's (plan_render)
};

// Serves until stdin ends; returns the exit code. Throws ej::UsageError for an EJ_MCP_MAX_S that is
// not a number of seconds.
int serve(const ServerOptions& options);

// The protocol revisions ej speaks, newest first: a client asking for another gets the newest
// (it then decides whether it can go on), as MCP's version negotiation has it.
inline constexpr const char* k_protocol_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

// The bound from EJ_MCP_MAX_S (default 10 s).
double call_bound_seconds();

} // namespace ej::mcp
