#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ej::core {

// Where in the code an attempt, status change or run happened.
struct GitContext {
  std::string commit;    // full hex id of HEAD; empty in a repository with no commit yet
  std::string branch;    // branch name, or empty when HEAD is detached
  bool dirty = false;    // uncommitted changes or untracked files
  std::string diff_blob; // blob hash of `git diff HEAD` + untracked files, when dirty
};

nlohmann::json to_json(const GitContext& context);
GitContext git_context_from_json(const nlohmann::json& json);
// "a1b2c3d4 (main, dirty)"
std::string describe(const GitContext& context);

} // namespace ej::core
