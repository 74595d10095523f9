#include "core/run_states.h"

#include <array>
#include <utility>

namespace ej::core {

namespace {

template <typename Value, std::size_t N> using StateNames = std::array<std::pair<Value, std::string_view>, N>;

constexpr StateNames<RunStatus, 10> k_run_status_names{{
    {RunStatus::Started, "started"},
    {RunStatus::Finished, "finished"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Timeout, "timeout"},
    {RunStatus::ExtractError, "extract-error"},
    {RunStatus::BuildFailed, "build-failed"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Imported, "imported"},
    {RunStatus::CheckFailed, "check-failed"},
    {RunStatus::Invalid, "invalid"},
}};

constexpr StateNames<RepeatEnding, 6> k_repeat_ending_names{{
    {RepeatEnding::Exited, "exited"},
    {RepeatEnding::Signaled, "signaled"},
    {RepeatEnding::TimedOut, "timed-out"},
    {RepeatEnding::Interrupted, "interrupted"},
    {RepeatEnding::SpawnFailed, "spawn-failed"},
    {RepeatEnding::Stopped, "stopped"},
}};

constexpr StateNames<SampleKind, 3> k_sample_kind_names{{
    {SampleKind::Sample, "sample"},
    {SampleKind::Aggregate, "aggregate"},
    {SampleKind::Skipped, "skipped"},
}};

constexpr StateNames<SessionStop, 5> k_session_stop_names{{
    {SessionStop::Rounds, "rounds"},
    {SessionStop::Decisive, "decisive"},
    {SessionStop::MaxRounds, "max-rounds"},
    {SessionStop::Budget, "budget"},
    {SessionStop::Failed, "failed"},
}};

template <typename Value, std::size_t N>
std::string_view name_of_state(const StateNames<Value, N>& names, Value value)
{
  for (const auto& [state, name] : names) {
    if (state == value) {
      return name;
    }
  }
  return "unknown";
}

template <typename Value, std::size_t N>
std::optional<Value> state_named(const StateNames<Value, N>& names, std::string_view text)
{
  for (const auto& [state, name] : names) {
    if (name == text) {
      return state;
    }
  }
  return std::nullopt;
}

} // namespace

std::string_view to_string(RunStatus status)
{
  return name_of_state(k_run_status_names, status);
}

std::optional<RunStatus> parse_run_status(std::string_view text)
{
  return state_named(k_run_status_names, text);
}

std::string_view to_string(RepeatEnding ending)
{
  return name_of_state(k_repeat_ending_names, ending);
}

std::optional<RepeatEnding> parse_repeat_ending(std::string_view text)
{
  return state_named(k_repeat_ending_names, text);
}

std::string_view to_string(SampleKind kind)
{
  return name_of_state(k_sample_kind_names, kind);
}

std::optional<SampleKind> parse_sample_kind(std::string_view text)
{
  return state_named(k_sample_kind_names, text);
}

std::string_view to_string(SessionStop stop)
{
  return name_of_state(k_session_stop_names, stop);
}

std::optional<SessionStop> parse_session_stop(std::string_view text)
{
  return state_named(k_session_stop_names, text);
}

} // namespace ej::core
