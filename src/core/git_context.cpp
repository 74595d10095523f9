#include "core/git_context.h"

#include <fmt/format.h>

namespace ej::core {

std::vector<LargeUntracked> GitContext::left_out() const
{
  std::vector<LargeUntracked> out;
  for (const auto& file : large_untracked) {
    if (!file.stored()) {
      out.push_back(file);
    }
  }
  return out;
}

nlohmann::json to_json(const GitContext& context)
{
  nlohmann::json out = {{"commit", context.commit},
                        {"branch", context.branch},
                        {"dirty", context.dirty},
                        {"diff_blob", context.diff_blob}};
  if (!context.large_untracked.empty()) { // absent before payload version 3, and when there is none
    auto& files = out["large_untracked"] = nlohmann::json::array();
    for (const auto& file : context.large_untracked) {
      nlohmann::json entry = {{"path", file.path}, {"size", file.size}, {"sha256", file.sha256}};
      if (file.stored()) {
        entry["content_blob"] = file.content_blob;
      }
      if (file.executable) {
        entry["executable"] = true;
      }
      files.push_back(std::move(entry));
    }
  }
  return out;
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
  if (const auto files = json.find("large_untracked"); files != json.end() && files->is_array()) {
    for (const auto& entry : *files) {
      if (!entry.is_object() || !entry.contains("path") || !entry["path"].is_string()) {
        continue;
      }
      LargeUntracked file;
      file.path = entry["path"].get<std::string>();
      file.size = entry.value("size", std::uint64_t{0});
      file.sha256 = entry.value("sha256", "");
      file.content_blob = entry.value("content_blob", "");
      file.executable = entry.value("executable", false);
      context.large_untracked.push_back(std::move(file));
    }
  }
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

std::string describe_files(const std::vector<LargeUntracked>& files, std::size_t at_most)
{
  std::string out;
  for (std::size_t i = 0; i < files.size() && i < at_most; ++i) {
    if (!out.empty()) {
      out += ", ";
    }
    out +=
        fmt::format("{} ({:.1f} MiB)", files[i].path, static_cast<double>(files[i].size) / (1024.0 * 1024.0));
  }
  if (files.size() > at_most) {
    out += fmt::format(" and {} more", files.size() - at_most);
  }
  return out;
}

} // namespace ej::core
