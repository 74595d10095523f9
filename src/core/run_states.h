#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string_view>

// The states of a run and of what it recorded, each with its one spelling in the journal, events
// and JSON output: code compares the enums, and only these functions see the words.
namespace ej::core {

// How a run stands or ended. CheckFailed: the benchmark's --check command failed after a repeat;
// Invalid: a repeat's results cannot be true (a time the benchmark printed longer than the repeat
// took, work left running after it). Neither is ever judged (docs/benchmarks.md, "Checks").
enum class RunStatus {
  Started,
  Finished,
  Failed,
  Timeout,
  ExtractError,
  BuildFailed,
  Interrupted,
  Imported,
  CheckFailed,
  Invalid
};

std::string_view to_string(RunStatus status);
std::optional<RunStatus> parse_run_status(std::string_view text);

// How one repeat ended: as its process did, or stopped (ej was suspended, Ctrl-Z, so the repeat is
// kept as a warmup).
enum class RepeatEnding { Exited, Signaled, TimedOut, Interrupted, SpawnFailed, Stopped };

std::string_view to_string(RepeatEnding ending);
std::optional<RepeatEnding> parse_repeat_ending(std::string_view text);

// What a recorded value is: a measurement, an aggregate the benchmark printed (a mean over its own
// iterations), or a case the benchmark skipped.
enum class SampleKind { Sample, Aggregate, Skipped };

std::string_view to_string(SampleKind kind);
std::optional<SampleKind> parse_sample_kind(std::string_view text);

// Why the rounds of an interleaved session (ej run --against) ended: the fixed rounds were done,
// --until-decisive decided or spent its planned maximum, the --budget ran out, or a side failed.
enum class SessionStop { Rounds, Decisive, MaxRounds, Budget, Failed };

std::string_view to_string(SessionStop stop);
std::optional<SessionStop> parse_session_stop(std::string_view text);

// A state goes into JSON by its name (to_string), never as the number nlohmann would write.
void to_json(nlohmann::json&, RunStatus) = delete;
void to_json(nlohmann::json&, RepeatEnding) = delete;
void to_json(nlohmann::json&, SampleKind) = delete;
void to_json(nlohmann::json&, SessionStop) = delete;

} // namespace ej::core
