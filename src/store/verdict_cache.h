#pragma once

#include "store/database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Verdict lines kept between commands. Judging an attempt reads every sample of its runs and of
// the baseline: with ten runs an attempt, `ej log -n 50` spent four fifths of its time judging. A
// render judges every attempt of its plan anyway; it keeps each line with what it was judged from,
// and a reader uses the line only while the journal still holds exactly that (runs, baseline pins
// and withdrawals are only ever added, and a run that ended never changes but by a withdrawal), or
// that and baselines pinned after it all (LaterPins). Local state, as the region hashes: never
// synced, emptied by every rebuild (reindex, purge, a renumbering import).
namespace ej::store {

// What an attempt's verdict is judged from, in counts that change whenever the verdict may.
struct VerdictInputs {
  std::string plan;
  std::string target;               // the plan's targets, measures and headline, as stored
  std::int64_t runs = 0;            // the attempt's
  std::int64_t baselines = 0;       // the plan's baseline pins
  std::int64_t bench_revisions = 0; // every benchmark's: a rule may change the primary metric
  // Every run withdrawal and restoration, and every interleaved comparison (a calibration among them
  // tells a verdict what it could detect): rare, so counted whole.
  std::int64_t withdrawals = 0;
  bool operator==(const VerdictInputs&) const = default;
};

// What lets a kept line outlive a baseline pinned after it. A line is judged against the baseline
// in force when the attempt's runs were made; a pin made after all of them and after every pin the
// line saw changes which run that is for no benchmark, only the note that names the current
// baseline. So the line keeps where that note is, to word it anew.
struct LaterPins {
  std::int64_t through_ms = 0; // the newest of the plan's pins and of the attempt's runs' starts
  // The verdict's benchmark and the baseline it was judged against, and where the note begins in the
  // text and how long it is; bench is empty for a line without a verdict.
  std::string bench;
  int baseline_run = 0;
  std::int64_t note_at = 0;
  std::int64_t note_length = 0;
};

struct CachedVerdict {
  int attempt = 0;
  VerdictInputs inputs;
  std::optional<std::string> text;                    // nullopt: the attempt has no verdict
  std::optional<LaterPins> later_pins = std::nullopt; // nullopt: a new pin judges the line again
};

struct VerdictLookup {
  VerdictInputs now;                   // what the journal holds now
  std::optional<CachedVerdict> cached; // the line a render kept, and what it judged it from
  std::string maker;                   // the build that kept it (another may word it otherwise)
  // With cached->later_pins: whether every pin of the plan made since the line was kept came after
  // its through_ms, each of a benchmark the plan had pinned by then; and the newest pin of the
  // line's benchmark now.
  bool pinned_after_only = false;
  std::optional<int> baseline_now;
};

// Whether the journal has the table as this ej keeps it (schema 15): a journal opened read-only at
// an older version has none, or one without the columns of LaterPins.
bool has_verdict_cache(Database& db);
// By attempt; an attempt that does not exist is left out.
std::map<int, VerdictLookup> look_up_verdicts(Database& db, const std::vector<int>& attempts);
// The inputs of the attempts of a plan whose lines may be kept, read in the snapshot their verdicts
// are judged in: those of which no run, nor a baseline run of the plan, is still running or misses
// its environment snapshot. Such a line needs no such check when read: with the same counts, the
// same runs and pins are there, and none can run again or lose its snapshot (purge and
// renumbering empty the table).
std::map<int, VerdictInputs> verdict_inputs_of_plan(Database& db, const std::string& plan);
// What every attempt of a plan shares of those inputs (runs left 0), read once: a render counts
// each attempt's runs from those it read, and checks that none is running or misses its snapshot
// (evidence/verdict_line.h), which verdict_inputs_of_plan asked of every run in SQL, a row of the
// runs table each. nullopt when no line of the plan may be kept: a baseline run of the plan is
// still running or misses its environment snapshot (or there is no such plan).
std::optional<VerdictInputs> plan_verdict_inputs(Database& db, const std::string& plan);
// Keeps lines (in the caller's write transaction), replacing those of the same attempts; none when
// the maker is empty (a build that cannot be told from another). Returns how many rows it changed:
// a line kept the same is not written again.
std::size_t keep_verdicts(Database& db, std::string_view maker, const std::vector<CachedVerdict>& verdicts);
void forget_verdicts(Database& db);

} // namespace ej::store
