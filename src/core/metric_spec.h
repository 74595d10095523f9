#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>

// What a benchmark measures, as plain data: the option grammar that writes it and the checks the
// readers need live in measure/metric_spec.h; this is what a stored definition reads into, once.
namespace ej::core {

// Which way a metric improves: time goes down, throughput goes up.
enum class Direction { LowerIsBetter, HigherIsBetter };

// One per reader (measure/readers.h); stored in the journal by the reader's name, never by number.
enum class ExtractorKind {
  Regex,
  Kv,
  Json,
  Nvbench,
  Gbench,
  GbenchConsole,
  Hyperfine,
  Nccl,
  SglangOneBatch,
  Pytest,
  Catch2,
  Criterion,
  Torch,
  PerfStat,
};

// Who chose a metric's direction.
enum class DirectionChoice {
  Inferred,   // ej inferred it when the metric was added; the unit seen at run time may decide
  Given,      // --better said it
  Unrecorded, // stored before ej kept this: given when the direction is not the one ej infers
              // (measure::direction_given settles it)
};

struct MetricSpec {
  std::string name;
  ExtractorKind kind = ExtractorKind::Regex;
  std::string arg;          // BODY of the --metric grammar, prefixes and @FILE removed
  std::string file;         // empty: read a stream
  bool from_stderr = false; // the stream read when file is empty
  std::string unit;         // as given by --unit (or the spec); empty: the extractor's default
  Direction better = Direction::LowerIsBetter; // bench add stores the inferred one
  DirectionChoice better_choice = DirectionChoice::Inferred;

  bool operator==(const MetricSpec&) const = default;
};

// The reader's name ("regex", "gbench-console"): the KIND of --metric NAME=KIND[:ARG].
std::string_view to_string(ExtractorKind kind);
std::optional<ExtractorKind> parse_extractor_kind(std::string_view text);
// "higher", "lower": as --better and the stored spec say a direction.
std::string_view to_string(Direction direction);
std::optional<Direction> parse_better(std::string_view text);

// For storage in the journal: {"name","kind","arg","file","stream","unit","better","better_given"}
// ("better_given" left out for an unrecorded choice, as such a spec was stored).
nlohmann::json to_json(const MetricSpec& spec);
// The one reader of a stored spec. Keys it does not know are ignored (a newer ej's). Throws
// ej::Error when the JSON is not a metric spec (no name or kind, a field of the wrong type, an
// unknown kind, stream or direction). Whether the spec suits its reader (a regex that compiles)
// is measure's check (measure::checked_stored_spec).
MetricSpec metric_spec_from_json(const nlohmann::json& json);

} // namespace ej::core
