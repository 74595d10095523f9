#include "measuring/code_restore.h"

#include "store/queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/hash.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::measuring {

namespace {

// The work tree's file at the same path, when it has the recorded bytes.
bool same_in_work_tree(const Workspace& workspace, const core::LargeUntracked& file)
{
  if (file.sha256.empty()) {
    return false; // too large to hash when recorded: nothing to recognise it by
  }
  std::error_code ec;
  const auto path = workspace.work_tree / file.path;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec)) ||
      std::filesystem::file_size(path, ec) != file.size) {
    return false;
  }
  return util::sha256_file(path) == file.sha256;
}

} // namespace

RecordedCode recorded_code(store::Journal& journal, const Workspace& workspace, const std::string& event_id,
                           const core::GitContext& git, const std::string& name)
{
  RecordedCode recorded;
  recorded.code.commit = git.commit;
  if (git.dirty && !git.diff_blob.empty()) {
    auto blob = journal.blob(git.diff_blob);
    if (!blob) {
      throw Error(
          "the stored diff of {} is missing from the journal (run 'ej sync' to fetch it, or 'ej fsck')",
          name);
    }
    recorded.code.patch = std::move(*blob);
  }
  if (const auto payload = store::event_payload(journal.db(), event_id);
      payload && payload->is_object() && payload->contains("git")) {
    recorded.code.large_files = core::git_context_from_json((*payload)["git"]).large_untracked;
  }
  for (const auto& file : recorded.code.large_files) {
    // A stored file's blob is named by the hash of what was stored: another hash than the file's
    // says that redaction changed its bytes; a blob not here was not synced yet.
    if (file.stored() && file.content_blob == file.sha256 && journal.has_blob(file.content_blob)) {
      continue;
    }
    (same_in_work_tree(workspace, file) ? recorded.from_work_tree : recorded.unavailable).push_back(file);
  }
  return recorded;
}

void check_complete(const RecordedCode& recorded, const std::string& name, bool allow_incomplete)
{
  if (!recorded.from_work_tree.empty()) {
    fmt::print(stderr,
               "ej: {} left {} untracked file(s) out of its code state; the work tree has them with the "
               "same bytes (by sha256), so they are restored from there: {}\n",
               name, recorded.from_work_tree.size(), core::describe_files(recorded.from_work_tree));
  }
  if (recorded.unavailable.empty()) {
    return;
  }
  if (!allow_incomplete) {
    throw Error(
        "the code state of {} is incomplete: {} untracked file(s) were too large to store and are not in "
        "the work tree with the same bytes: {}. Restored without them the code is not what was "
        "measured. Put them back in the work tree (the same bytes), or go on without them with "
        "--allow-incomplete; record such files with --keep-untracked-up-to SIZE next time",
        name, recorded.unavailable.size(), core::describe_files(recorded.unavailable));
  }
  fmt::print(stderr,
             "ej: warning: the code state of {} is incomplete: restored without {} untracked file(s) it "
             "did not store: {}\n",
             name, recorded.unavailable.size(), core::describe_files(recorded.unavailable));
}

git::ContentOf recorded_content(store::Journal& journal, const Workspace& workspace, const RecordedCode& recorded)
{
  const auto listed = [](const std::vector<core::LargeUntracked>& files, const core::LargeUntracked& file) {
    return std::any_of(files.begin(), files.end(), [&](const auto& f) { return f.path == file.path; });
  };
  return [&journal, &workspace, &recorded,
          listed](const core::LargeUntracked& file) -> std::optional<std::string> {
    if (listed(recorded.unavailable, file)) {
      return std::nullopt;
    }
    if (listed(recorded.from_work_tree, file)) {
      return util::read_file(workspace.work_tree / file.path);
    }
    return journal.blob(file.content_blob);
  };
}

git::RestoreResult restore_recorded(store::Journal& journal, const measuring::Workspace& workspace,
                                    const RecordedCode& recorded, const std::filesystem::path& dir)
{
  return git::restore_code_state(workspace.git_dir, recorded.code,
                                 recorded_content(journal, workspace, recorded), dir);
}

} // namespace ej::measuring
