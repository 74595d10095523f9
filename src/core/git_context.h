#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ej::core {

// An untracked file too large for the stored diff: kept as a blob of its own when asked
// (--keep-untracked-up-to), else only described, so that a restore can tell what it lacks.
struct LargeUntracked {
  std::string path;         // relative to the work tree
  std::uint64_t size = 0;   // bytes
  std::string sha256;       // of its bytes; empty when it was too large to hash or unreadable
  std::string content_blob; // the blob holding its bytes; empty: not stored
  bool executable = false;

  bool stored() const { return !content_blob.empty(); }
};

// Where in the code an attempt, status change or run happened.
struct GitContext {
  std::string commit;    // full hex id of HEAD; empty in a repository with no commit yet
  std::string branch;    // branch name, or empty when HEAD is detached
  bool dirty = false;    // uncommitted changes or untracked files
  std::string diff_blob; // blob hash of `git diff HEAD` + untracked files, when dirty
  std::vector<LargeUntracked> large_untracked; // untracked files not in the diff

  // The untracked files whose bytes were not stored: what a restore of this state lacks.
  std::vector<LargeUntracked> left_out() const;
};

nlohmann::json to_json(const GitContext& context);
GitContext git_context_from_json(const nlohmann::json& json);
// "a1b2c3d4 (main, dirty)"
std::string describe(const GitContext& context);
// "big.bin (2.0 MiB)": the files a restore lacks, for messages.
std::string describe_files(const std::vector<LargeUntracked>& files, std::size_t at_most = 5);

} // namespace ej::core
