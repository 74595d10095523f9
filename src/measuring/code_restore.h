#pragma once

#include "core/git_context.h"
#include "git/restore.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// What ej checkout and ej rerun restore of a recorded code state, and whether it is all of it.
namespace ej::measuring {

struct RecordedCode {
  git::CodeToRestore code;
  // Untracked files the state described but did not store, and that are not in the work tree with
  // the same bytes either: the restored code would lack them.
  std::vector<core::LargeUntracked> unavailable;
  std::vector<core::LargeUntracked> from_work_tree; // left out, found again by their hash
};

// The code state an attempt's or run's creation event recorded (event_id), as `name` ("run #5")
// is said in messages. The context of the derived tables lacks the untracked files kept apart
// from the diff: the event has them.
RecordedCode recorded_code(store::Journal& journal, const Workspace& workspace, const std::string& event_id,
                           const core::GitContext& git, const std::string& name);

// Refuses an incomplete code state unless allow_incomplete, saying what it lacks and what to do;
// with it, says so on stderr.
void check_complete(const RecordedCode& recorded, const std::string& name, bool allow_incomplete);

// The bytes of its large untracked files: from the journal, or the work tree's same file; nullopt
// for those it lacks. Holds references to journal, workspace and recorded.
git::ContentOf recorded_content(store::Journal& journal, const measuring::Workspace& workspace,
                                const RecordedCode& recorded);

// Writes it into dir (git::restore_code_state), the large files from the journal or the work tree.
git::RestoreResult restore_recorded(store::Journal& journal, const Workspace& workspace,
                                    const RecordedCode& recorded, const std::filesystem::path& dir);

} // namespace ej::measuring
