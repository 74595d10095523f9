#include "core/git_context.h"

namespace ej::core {

nlohmann::json to_json(const GitContext& context)
{
  return {{"commit", context.commit},
          {"branch", context.branch},
          {"dirty", context.dirty},
          {"diff_blob", context.diff_blob}};
}

GitContext git_context_from_json(const nlohmann::json& json)
{
  GitContext context;
  if (!json.is_object()) {
    return context;
  }
  context.commit = json.value("commit", "");
  context.branch = json.value("branch", "");
  context.dirty = json.value("dirty", false);
  context.diff_blob = json.value("diff_blob", "");
  return context;
}

std::string describe(const GitContext& context)
{
  std::string out = context.commit.empty() ? "(no commit)" : context.commit.substr(0, 10);
  out += " (";
  out += context.branch.empty() ? "detached" : context.branch;
  if (context.dirty) {
    out += ", dirty";
  }
  out += ")";
  return out;
}

} // namespace ej::core
