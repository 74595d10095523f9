#pragma once

#include "core/git_context.h"
#include "core/plan_measure.h"
#include "core/status.h"
#include "core/target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// What the journal holds, as plain values read from the store.
namespace ej::core {

struct Plan {
  std::string slug;
  std::string title;
  std::string goal;
  std::string target;                // the first target as written for older ej ("verify_ms < 15"), or empty
  std::vector<Target> targets;       // every target, with its benchmark when it names one
  std::vector<PlanMeasure> measures; // the first is the headline; empty: the plan's one benchmark
  ParamValues headline;              // the combination a sweep is summed up at, unless a measure has its own
  std::string doc_path;
  std::int64_t created_ms = 0;
  int attempt_count = 0;
  // What of its stored measures, targets or headline this ej could not read (a newer ej wrote
  // them), one sentence each: left out of the plan, and said by the commands that show it.
  std::vector<std::string> unread;
};

struct Link {
  std::string kind; // "supersedes", "retry-of", "blocked-by"
  int from = 0;     // attempt numbers
  int to = 0;
};

struct StatusChange {
  std::int64_t time_ms = 0;
  std::string from; // empty for the first status
  std::string to;
  std::string reason;
  GitContext git;
};

struct Note {
  std::int64_t time_ms = 0;
  std::string text;
};

struct Attempt {
  int number = 0;
  std::string id; // ULID of the event that created it
  std::string plan;
  std::string title;
  std::string hypothesis;
  std::string command;
  Status status = Status::Proposed;
  std::string reason;
  std::vector<std::string> tags;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  GitContext git;
  // Blocked, and retried since (a retry-of link) by these adopted attempts, ascending: see
  // resolved_text(). Empty for any other status.
  std::vector<int> resolved_by;
};

// Everything known about one attempt: the answer to `ej show` and `ej why`.
struct AttemptHistory {
  Attempt attempt;
  std::vector<StatusChange> status_changes;
  std::vector<Note> notes;
  std::vector<Link> links_out; // this attempt -> others
  std::vector<Link> links_in;  // others -> this attempt
};

} // namespace ej::core
