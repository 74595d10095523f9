#pragma once

#include "measuring/workspace.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

// One tool of the MCP server: its name, what it says of itself, the schemas of its arguments and of
// its result, and the function that answers a call (with the same object the documented --json
// output has, and a short text).
namespace ej::mcp {

// What a call may use: where the journal is, and the time it has.
struct Context {
  measuring::Workspace workspace;
  double bound_s = 10;        // no call outlives it (EJ_MCP_MAX_S)
  std::string build_identity; // the verdict lines a render keeps are this build's
  std::string version;        // "ej 0.1.0 (commit ...)"
  // What a tool that waits may take of the bound: the rest answers the call.
  double waiting_s() const { return bound_s > 1.5 ? bound_s - 1 : bound_s * 0.6; }
};

// A tool's answer: structured as docs/json.md documents it (with "schema"), and a sentence or two.
struct Answer {
  nlohmann::json structured;
  std::string text;
};

// The arguments of a call, read as the tool's input schema says: a name it does not have, a value
// of another type, or a required one missing is a usage error that says which (the tool's result
// then has isError, so that the model can correct its call).
class Arguments {
public:
  Arguments(std::string tool, const nlohmann::json& schema, const nlohmann::json& given);

  bool has(const std::string& name) const;
  std::string text(const std::string& name, const std::string& fallback = "") const;
  // An attempt or run named by a string ("12", "#12", "r5", "@k3f9qx") or an integer (12).
  std::string name_of(const std::string& name) const;
  std::optional<long long> integer(const std::string& name) const;
  std::optional<double> number(const std::string& name) const;
  bool flag(const std::string& name) const;
  std::vector<std::string> texts(const std::string& name) const;

private:
  const nlohmann::json& value(const std::string& name) const;

  std::string m_tool;
  nlohmann::json m_given;
};

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;
  nlohmann::json output_schema;
  bool read_only = true;
  bool destructive = false;
  std::function<Answer(const Arguments&, const Context&)> answer;
};

// Every tool, in the order tools/list gives them.
const std::vector<Tool>& all_tools();
const Tool* find_tool(const std::string& name);

void add_attempt_tools(std::vector<Tool>& tools); // tools_attempts.cpp
void add_run_tools(std::vector<Tool>& tools);     // tools_runs.cpp
void add_plan_tools(std::vector<Tool>& tools);    // tools_plans.cpp

} // namespace ej::mcp
