#pragma once

#include "core/git_context.h"
#include "core/run_records.h"
#include "store/event.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Every event type of the journal, with its one typed builder (payload()) and its one reader
// (read()). Commands build events only through these types and projections read them only through
// them: payloads travel between replicas and versions of ej, so they are a contract, documented
// field by field in docs/events.md.
//
// Payload versions (Event::schema_version):
//   1: attempts, runs and benchmark revisions are referred to by the number the writing replica
//      gave them ({"attempt": 12}). Written by every ej before sharing existed.
//   2: they are referred to by the id (ULID) of the event that created them ({"attempt": "01J..."}),
//      which means the same thing on every replica. Creation events still carry the number the
//      writer gave, so that version-1 references from the same replica resolve.
//   3: run.started carries the run's --env overrides (`env`), and code states (`git`) describe the
//      untracked files too large for their diff (`large_untracked`). Both absent before, and when
//      there is none.
// A reader accepts every version ever written; the type of a reference field says which form it is.
namespace ej::store::events {

// An attempt, run or benchmark revision named by an event: by creation-event id (version 2) or by
// the number the event's replica gave it (version 1).
struct Ref {
  std::string id;
  std::int64_t number = 0;

  bool empty() const { return id.empty() && number == 0; }
  static Ref to(std::string id) { return Ref{std::move(id), 0}; }
  nlohmann::json to_json() const; // the id, or null when empty
  static Ref from_json(const nlohmann::json& value);
};

// `target` is the first target without its benchmark, which ej before measures reads; `targets`
// (qualified, "verify:verify_ms < 15"), `measures` ("serve:tok_s@concurrency=1") and `headline`
// ("concurrency=1") are absent from older events: a plan of one benchmark and at most one target.
struct PlanCreated {
  static constexpr std::string_view type = "plan.created";
  std::string slug, title, goal, target, doc;
  std::vector<std::string> targets = {}, measures = {};
  std::string headline = {};
  nlohmann::json payload() const;
  static PlanCreated read(const Event& event);
};

// Only the fields present change; `targets` and `measures` replace the whole list.
struct PlanEdited {
  static constexpr std::string_view type = "plan.edited";
  std::string slug;
  std::optional<std::string> title, goal, target, doc;
  std::optional<std::vector<std::string>> targets = {}, measures = {};
  std::optional<std::string> headline = {};
  nlohmann::json payload() const;
  static PlanEdited read(const Event& event);
};

struct AttemptLink {
  std::string kind; // supersedes, retry-of, blocked-by
  Ref to;
};

struct AttemptCreated {
  static constexpr std::string_view type = "attempt.created";
  std::int64_t number = 0; // the number the writing replica gave it
  std::string plan, title, hypothesis, command;
  std::vector<std::string> tags;
  std::vector<AttemptLink> links;
  core::GitContext git;
  nlohmann::json payload() const;
  static AttemptCreated read(const Event& event);
};

struct AttemptStatus {
  static constexpr std::string_view type = "attempt.status";
  Ref attempt;
  std::string status, reason;
  core::GitContext git;
  nlohmann::json payload() const;
  static AttemptStatus read(const Event& event);
};

struct AttemptNote {
  static constexpr std::string_view type = "attempt.note";
  Ref attempt;
  std::string text;
  nlohmann::json payload() const;
  static AttemptNote read(const Event& event);
};

struct AttemptEdited {
  static constexpr std::string_view type = "attempt.edited";
  Ref attempt;
  std::optional<std::string> title, hypothesis, command;
  std::vector<std::string> add_tags, remove_tags;
  bool changes_nothing() const;
  nlohmann::json payload() const;
  static AttemptEdited read(const Event& event);
};

// Links of an attempt changed after it was created (ej attempt edit --blocked-by, --unblock,
// --retry-of): the links to add, then those to remove.
struct AttemptLinked {
  static constexpr std::string_view type = "attempt.linked";
  Ref attempt;
  std::vector<AttemptLink> add, remove;
  nlohmann::json payload() const;
  static AttemptLinked read(const Event& event);
};

// bench.added and bench.edited: a new revision of a benchmark definition.
struct BenchRevision {
  static constexpr std::string_view added_type = "bench.added";
  static constexpr std::string_view edited_type = "bench.edited";
  bool edited = false;
  std::string name;
  int revision = 0; // the number the writing replica gave it
  nlohmann::json definition;
  std::string_view event_type() const { return edited ? edited_type : added_type; }
  nlohmann::json payload() const;
  static BenchRevision read(const Event& event);
};

struct ProbeAdded {
  static constexpr std::string_view type = "probe.added";
  std::string name;
  nlohmann::json definition; // argv, shell, timeout_s
  nlohmann::json payload() const;
  static ProbeAdded read(const Event& event);
};

struct ProbeRemoved {
  static constexpr std::string_view type = "probe.removed";
  std::string name;
  nlohmann::json payload() const;
  static ProbeRemoved read(const Event& event);
};

struct RunStarted {
  static constexpr std::string_view type = "run.started";
  std::int64_t number = 0; // the number the writing replica gave it
  std::string bench;
  int revision = 0;   // as the writing replica numbered the benchmark's revisions
  Ref bench_revision; // version 2: the bench.added/bench.edited event of that revision
  Ref attempt;        // empty: a run for no attempt
  std::string label;
  nlohmann::json params = nlohmann::json::object();
  core::GitContext git;
  std::string env_blob;
  nlohmann::json env_readings = nlohmann::json::object();
  std::string host;
  std::int64_t pid = 0;
  std::int64_t pid_start_ticks = 0;
  std::string boot_id;
  // Where it ran when not on this machine (ej run --on): {"name", "target", "hostname",
  // "work_dir"}; null (and absent from the payload) for a run here.
  nlohmann::json on;
  // Version 3: the --env NAME=VALUE overrides it was given, in order; a secret-named variable's
  // value is "<redacted>". Absent from the payload when empty.
  std::vector<std::pair<std::string, std::string>> env;
  nlohmann::json payload() const;
  static RunStarted read(const Event& event);
};

struct Sample {
  std::string metric, key;
  double value = 0;
  std::string unit;
  core::SampleKind kind = core::SampleKind::Sample; // left out of the payload when a sample
};

struct Repeat {
  int index = 0;
  nlohmann::json params = nlohmann::json::object();
  bool warmup = false;
  core::RepeatEnding ending = core::RepeatEnding::Exited;
  int exit_code = 0, signal = 0;
  double wall_s = 0, user_s = 0, sys_s = 0;
  std::int64_t max_rss_kb = 0;
  std::vector<Sample> samples;
  core::DeviceState device; // "device" in the payload, absent when empty
};

// A repeat's device state as the payload (and the run_repeats.device column) holds it.
nlohmann::json device_json(const core::DeviceState& device);
core::DeviceState device_from_json(const nlohmann::json& value);

// A run's status as the journal spells it. One this ej does not know (a newer ej wrote it) reads as
// failed: a run that is neither judged nor shown as finished, as every unknown status was before.
core::RunStatus read_run_status(std::string_view text);
// A repeat's ending as the journal spells it; one this ej does not know reads as signaled: neither
// exited with a code nor cut short by an interruption, as every unknown ending was before.
core::RepeatEnding read_repeat_ending(std::string_view text);
// A sample's kind as the journal spells it: empty (the payload leaves it out) or one this ej does not
// know is a sample, a value measured, as before.
core::SampleKind read_sample_kind(std::string_view text);

// A batch of measured repeats of a run, written as they come.
struct RunRepeats {
  static constexpr std::string_view type = "run.repeats";
  Ref run;
  std::vector<Repeat> repeats;
  nlohmann::json payload() const;
  static RunRepeats read(const Event& event);
};

// The samples of one repeat past those its run.repeats entry carries (a benchmark that prints a
// value per iteration), in order from ordinal `first`: written in batches of bounded size, so that
// no event, and no write, holds millions of samples.
struct RunSamples {
  static constexpr std::string_view type = "run.samples";
  struct Label {
    std::string metric, key, unit;
    core::SampleKind kind = core::SampleKind::Sample; // as in Sample
  };
  Ref run;
  int index = 0;          // the repeat's idx
  std::int64_t first = 0; // the ordinal of the first value among the repeat's samples
  std::vector<Label> labels;
  std::vector<std::uint32_t> label_of; // per value, an index into labels; empty: all the first
  std::vector<double> values;
  nlohmann::json payload() const;
  static RunSamples read(const Event& event);
};

struct RunFinished {
  static constexpr std::string_view type = "run.finished";
  Ref run;
  core::RunStatus status = core::RunStatus::Finished;
  std::string reason;
  nlohmann::json outputs = nlohmann::json::object(); // byte counts, stdout_blob, stderr_blob
  nlohmann::json payload() const;
  static RunFinished read(const Event& event);
};

// Figures measured outside ej (ej record).
struct RunImported {
  static constexpr std::string_view type = "run.imported";
  std::int64_t number = 0;
  std::string bench;
  int revision = 0;
  Ref bench_revision;
  Ref attempt;
  std::string source, label;
  std::optional<std::int64_t> when_ms;
  nlohmann::json params = nlohmann::json::object();
  std::vector<Sample> samples;
  nlohmann::json payload() const;
  static RunImported read(const Event& event);
};

// run.withdrawn and run.restored: a run kept in the journal but left out of every judgement and
// document (ej run withdraw), or taken back into them (ej run withdraw --undo).
struct RunWithdrawal {
  static constexpr std::string_view withdrawn_type = "run.withdrawn";
  static constexpr std::string_view restored_type = "run.restored";
  bool restored = false;
  Ref run;
  std::string reason;
  std::string_view event_type() const { return restored ? restored_type : withdrawn_type; }
  nlohmann::json payload() const;
  static RunWithdrawal read(const Event& event);
};

struct BaselinePinned {
  static constexpr std::string_view type = "baseline.pinned";
  std::string plan, bench;
  Ref run;
  std::string reason;
  nlohmann::json payload() const;
  static BaselinePinned read(const Event& event);
};

// A reason given to a baseline pin after the fact (ej plan baseline --reason): `pin` is the id of
// the baseline.pinned event, the same on every replica.
struct BaselineExplained {
  static constexpr std::string_view type = "baseline.explained";
  std::string plan, bench, pin, reason;
  nlohmann::json payload() const;
  static BaselineExplained read(const Event& event);
};

// A step in a benchmark's history said to be expected (ej ack BENCH@REV): it is shown with its
// reason and no longer reported as a regression. It names a commit, not a change point: change
// points are computed, and the one whose commit range holds the commit is the one acknowledged.
struct StepAcknowledged {
  static constexpr std::string_view type = "step.acknowledged";
  std::string bench;
  std::string metric; // empty: every metric of the benchmark
  std::string commit; // full hex id
  std::string reason;
  nlohmann::json payload() const;
  static StepAcknowledged read(const Event& event);
};

// ej bisect BENCH GOOD BAD's answer: the first commit of a step between two commits of a
// first-parent line, found by measuring commits interleaved against GOOD; or, when commits that
// could not be judged stand in the way, the commits it may be. Like an acknowledgement it names
// commits, not a change point: ej history shows it beside the change point whose range holds it.
struct StepLocated {
  static constexpr std::string_view type = "step.located";
  struct Skipped {
    std::string commit, why;
  };
  std::string bench, metric, params;
  std::string good, bad, first_bad; // full hex ids; first_bad empty: not one commit
  std::vector<std::string> candidates;
  std::vector<Skipped> skipped;
  double min_effect_pct = 0;
  Ref candidate, reference; // candidates.back()'s run and GOOD's, measured together
  bool log_ratio = true;    // the scale of estimate, low and high: a log ratio, else a difference
  double estimate = 0, low = 0, high = 0;
  std::string unit;
  nlohmann::json payload() const;
  static StepLocated read(const Event& event);
};

// A purge rewrote stored copies of a value; the event says how many, never the value.
struct JournalPurged {
  static constexpr std::string_view type = "journal.purged";
  int events = 0, blobs = 0;
  nlohmann::json payload() const;
  static JournalPurged read(const Event& event);
};

// The numbers a replica was given by the shared remote for attempts or runs it created: numbers
// first, first+1, ... in the order of ids. Written once the claim was accepted by the remote (see
// store/numbering.h), so two claims of one number never both exist on one remote.
struct NumbersClaimed {
  static constexpr std::string_view type = "numbers.claimed";
  std::string kind; // "attempts" or "runs"
  std::int64_t first = 0;
  std::vector<std::string> ids;
  nlohmann::json payload() const;
  static NumbersClaimed read(const Event& event);
};

// An interleaved comparison (ej run --against): the candidate's and the reference's runs, measured
// in the same session in rounds, and the design that made them, so that a verdict pairs what was
// measured together and an audit can replay the order. Repeats are named by their index in their
// run ([first, end)): a round's block of each side, warmups before the first round excluded.
struct ComparisonInterleaved {
  static constexpr std::string_view type = "comparison.interleaved";
  struct Round {
    std::string params;           // the combination, as its repeats record it (JSON)
    bool reference_first = false; // the order drawn for the round
    int candidate_first = 0, candidate_end = 0;
    int reference_first_index = 0, reference_end = 0;
  };
  Ref candidate, reference;
  std::string reference_name; // as the user named it: "baseline", "r5", "#3", "HEAD~1"
  std::string seed;           // decimal: every draw of the session came from it (--seed replays it)
  int block = 1;              // repeats of each side per round
  int warmup = 0;             // per side and combination, before its first round
  int max_rounds = 0;         // --until-decisive's plan (what its guarantee holds for); 0: fixed rounds
  double alpha = 0.05;        // --until-decisive's false-verdict rate over all its looks
  core::SessionStop stopped = core::SessionStop::Rounds; // why the rounds ended
  // "calibration": an A/A session of one code state against itself (ej calibrate), whose rounds
  // measure the machine's noise; "bisect": a commit measured against GOOD by ej bisect; empty for
  // any other comparison of two code states.
  std::string purpose;
  // What --until-decisive decided on when it was not the benchmark's (ej bisect: half the step),
  // and what the verdict is judged on: empty, nullopt: the primary metric, the min effect.
  std::string metric;
  std::optional<double> min_effect_pct;
  std::vector<Round> rounds;
  nlohmann::json payload() const;
  static ComparisonInterleaved read(const Event& event);
};

// Every type above, for the reader of unknown events and for docs/events.md's test.
const std::vector<std::string_view>& known_types();
bool is_known_type(std::string_view type);

} // namespace ej::store::events
