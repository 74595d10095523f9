#pragma once

#include "core/status.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <cstdint>
#include <string>
#include <vector>

// The changes to attempts a user makes (ej try, status, note, judge --apply; the same tools of
// `ej mcp`): the text checked, the code state read outside the write lock, one event each.
namespace ej::evidence {

struct NewAttempt {
  std::string title;
  std::string plan; // empty: the current plan, else the only one
  std::string hypothesis;
  std::string command;
  std::vector<std::string> tags;
  // Attempts as named ("12", "#12", "@k3f9qx").
  std::vector<std::string> supersedes;
  std::vector<std::string> retry_of;
  std::vector<std::string> blocked_by;
  std::uint64_t keep_untracked = 0; // untracked files up to this size stored whole; 0: none
};

// Records a new attempt; returns its number (provisional while the shared remote numbers it).
int create_attempt(const measuring::Workspace& workspace, store::Journal& journal, const NewAttempt& attempt);

// Sets an attempt's status with its reason (required for rejected, blocked, inconclusive and
// superseded); returns the status it had.
core::Status change_status(const measuring::Workspace& workspace, store::Journal& journal, int number,
                           core::Status status, const std::string& reason);

// Adds a note to an attempt.
void add_note(store::Journal& journal, int number, const std::string& text);

// Tags as stored: checked single words, sorted, each once.
std::vector<std::string> checked_tags(const std::vector<std::string>& tags);

} // namespace ej::evidence
