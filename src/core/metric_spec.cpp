#include "core/metric_spec.h"

#include "util/error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <utility>

namespace ej::core {

namespace {

// In the order of the enum; the readers table (measure/readers.cpp) has a row for each.
constexpr std::array<std::pair<ExtractorKind, std::string_view>, 14> k_kind_names{{
    {ExtractorKind::Regex, "regex"},
    {ExtractorKind::Kv, "kv"},
    {ExtractorKind::Json, "json"},
    {ExtractorKind::Nvbench, "nvbench"},
    {ExtractorKind::Gbench, "gbench"},
    {ExtractorKind::GbenchConsole, "gbench-console"},
    {ExtractorKind::Hyperfine, "hyperfine"},
    {ExtractorKind::Nccl, "nccl"},
    {ExtractorKind::SglangOneBatch, "sglang-one-batch"},
    {ExtractorKind::Pytest, "pytest"},
    {ExtractorKind::Catch2, "catch2"},
    {ExtractorKind::Criterion, "criterion"},
    {ExtractorKind::Torch, "torch"},
    {ExtractorKind::PerfStat, "perf-stat"},
}};

} // namespace

std::string_view to_string(ExtractorKind kind)
{
  for (const auto& [known, name] : k_kind_names) {
    if (known == kind) {
      return name;
    }
  }
  return "regex"; // every kind has a name; the table's test sees to it
}

std::optional<ExtractorKind> parse_extractor_kind(std::string_view text)
{
  for (const auto& [kind, name] : k_kind_names) {
    if (name == text) {
      return kind;
    }
  }
  return std::nullopt;
}

std::string_view to_string(Direction direction)
{
  return direction == Direction::HigherIsBetter ? "higher" : "lower";
}

std::optional<Direction> parse_better(std::string_view text)
{
  if (text == "higher") {
    return Direction::HigherIsBetter;
  }
  if (text == "lower") {
    return Direction::LowerIsBetter;
  }
  return std::nullopt;
}

nlohmann::json to_json(const MetricSpec& spec)
{
  nlohmann::json out{
      {"name", spec.name},
      {"kind", to_string(spec.kind)},
      {"arg", spec.arg},
      {"file", spec.file},
      {"stream", spec.from_stderr ? "stderr" : "stdout"},
      {"unit", spec.unit},
      {"better", to_string(spec.better)},
  };
  if (spec.better_choice != DirectionChoice::Unrecorded) {
    out["better_given"] = spec.better_choice == DirectionChoice::Given;
  }
  return out;
}

MetricSpec metric_spec_from_json(const nlohmann::json& json)
{
  const auto text = [&json](const char* key, const char* fallback) -> std::string {
    if (!json.contains(key)) {
      return fallback;
    }
    if (!json.at(key).is_string()) {
      throw Error("stored metric spec {}: '{}' is not a string; the journal may be damaged", json.dump(),
                  key);
    }
    return json.at(key).get<std::string>();
  };
  if (!json.is_object() || !json.contains("name") || !json.contains("kind")) {
    throw Error("stored metric spec {} lacks a name or kind; the journal may be damaged", json.dump());
  }
  MetricSpec spec;
  spec.name = text("name", "");
  const auto kind = parse_extractor_kind(text("kind", ""));
  const std::string stream = text("stream", "stdout");
  const auto better = parse_better(text("better", "lower"));
  if (!kind || (stream != "stdout" && stream != "stderr") || !better) {
    throw Error("stored metric spec {} has an unknown kind, stream or direction; the journal may be damaged "
                "or come from a newer ej",
                json.dump());
  }
  spec.kind = *kind;
  spec.arg = text("arg", "");
  spec.file = text("file", "");
  spec.from_stderr = stream == "stderr";
  spec.unit = text("unit", "");
  spec.better = *better;
  if (!json.contains("better_given")) {
    spec.better_choice = DirectionChoice::Unrecorded;
  } else if (!json.at("better_given").is_boolean()) {
    throw Error("stored metric spec {}: 'better_given' is not true or false; the journal may be damaged",
                json.dump());
  } else {
    spec.better_choice =
        json.at("better_given").get<bool>() ? DirectionChoice::Given : DirectionChoice::Inferred;
  }
  return spec;
}

} // namespace ej::core
