#include "measure/direction.h"

#include "measure/extract_common.h"
#include "measure/units.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>

namespace ej::measure {

namespace {

constexpr std::array<std::string_view, 22> k_higher_words{
    "throughput", "tput", "goodput", "bandwidth", "bw",    "busbw",   "algbw",  "speedup",
    "qps",        "tps",  "rps",     "iops",      "flops", "gflops",  "tflops", "gbps",
    "mbps",       "gbs",  "hit",     "hits",      "score", "accuracy"};
constexpr std::array<std::string_view, 24> k_lower_words{
    "latency",  "lat",  "time",   "times",  "duration", "elapsed", "wall",  "runtime",
    "ttft",     "tpot", "itl",    "e2el",   "e2e",      "delay",   "wait",  "cycles",
    "overhead", "miss", "misses", "errors", "error",    "rss",     "stall", "jitter"};

std::vector<std::string> words_of(std::string_view text)
{
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  if (!word.empty()) {
    words.push_back(word);
  }
  return words;
}

std::optional<InferredBetter> from_unit(const std::optional<Unit>& unit, std::string_view where)
{
  if (!unit) {
    return std::nullopt;
  }
  const auto higher = higher_is_better(*unit);
  if (!higher) {
    return std::nullopt;
  }
  return InferredBetter{*higher ? Direction::HigherIsBetter : Direction::LowerIsBetter,
                        "unit " + unit->symbol + std::string(where)};
}

// The head word of a compound comes last ("output token throughput"): read from the end.
std::optional<InferredBetter> from_words(std::string_view text, std::string_view where)
{
  const auto words = words_of(text);
  for (auto word = words.rbegin(); word != words.rend(); ++word) {
    const auto is = [&word](std::string_view known) { return known == *word; };
    if (std::any_of(k_higher_words.begin(), k_higher_words.end(), is)) {
      return InferredBetter{Direction::HigherIsBetter,
                            "the word '" + *word + "' in its " + std::string(where)};
    }
    if (std::any_of(k_lower_words.begin(), k_lower_words.end(), is)) {
      return InferredBetter{Direction::LowerIsBetter,
                            "the word '" + *word + "' in its " + std::string(where)};
    }
  }
  return std::nullopt;
}

// The text beyond the name that may say what the value is: a kv key, a JSON key, a gbench field
// or an nvbench tag.
std::string described_text(const MetricSpec& spec)
{
  switch (spec.kind) {
  case ExtractorKind::Kv:
  case ExtractorKind::Json:
  case ExtractorKind::Nccl:
    return spec.arg;
  case ExtractorKind::Nvbench: {
    const auto slash = spec.arg.find('/');
    return slash == std::string::npos ? "" : spec.arg.substr(slash + 1);
  }
  case ExtractorKind::Gbench:
  case ExtractorKind::Pytest:
  case ExtractorKind::Catch2:
  case ExtractorKind::Criterion:
  case ExtractorKind::GbenchConsole:
    return std::string(detail::split_hash(spec.arg).field.value_or(""));
  case ExtractorKind::SglangOneBatch:
  case ExtractorKind::PerfStat:
    return spec.arg;
  case ExtractorKind::Regex:
  case ExtractorKind::Hyperfine:
  case ExtractorKind::Torch:
    break;
  }
  return "";
}

} // namespace

InferredBetter infer_better(const MetricSpec& spec)
{
  return infer_better(spec, "");
}

InferredBetter infer_better(const MetricSpec& spec, std::string_view seen_unit)
{
  // Values the reader gives in another kind of unit than its own (a gbench _cv row, Criterion's
  // change/estimates.json: %) are not in its unit, so that unit is not the reason: a percentage of
  // a time improves as the time does, and is named as such.
  const auto own = parse_unit(effective_unit(spec));
  const auto seen = parse_unit(seen_unit);
  if (spec.unit.empty() && own && seen && !convertible(*seen, *own)) {
    if (auto inferred = from_unit(seen, " (seen in the output)")) {
      return *inferred;
    }
    if (auto inferred = from_unit(own, ""); inferred && seen->dimension == Dimension::Percent) {
      inferred->reason = fmt::format("unit {}, relative to {}", seen->symbol, own->symbol);
      return *inferred;
    }
  }
  if (auto inferred = from_unit(own, "")) {
    return *inferred;
  }
  if (auto inferred = from_unit(parse_unit(seen_unit), " (seen in the output)")) {
    return *inferred;
  }
  if (auto inferred = from_unit(unit_in_name(spec.name), " (in its name)")) {
    return *inferred;
  }
  if (auto inferred = from_words(spec.name, "name")) {
    return *inferred;
  }
  if (auto inferred = from_words(described_text(spec), spec.kind == ExtractorKind::Kv ? "key" : "field")) {
    return *inferred;
  }
  return InferredBetter{};
}

std::optional<Direction> better_of_unit(std::string_view unit)
{
  const auto parsed = parse_unit(unit);
  const auto higher = parsed ? higher_is_better(*parsed) : std::nullopt;
  if (!higher) {
    return std::nullopt;
  }
  return *higher ? Direction::HigherIsBetter : Direction::LowerIsBetter;
}

bool direction_given(const MetricSpec& spec)
{
  switch (spec.better_choice) {
  case DirectionChoice::Given:
    return true;
  case DirectionChoice::Inferred:
    return false;
  case DirectionChoice::Unrecorded:
    break;
  }
  return spec.better != infer_better(spec).better;
}

Direction judged_better(const MetricSpec& spec, std::string_view unit)
{
  if (direction_given(spec)) {
    return spec.better;
  }
  return better_of_unit(unit).value_or(spec.better);
}

std::string direction_note(const MetricSpec& spec, std::string_view unit, std::string_view bench)
{
  if (direction_given(spec)) {
    return "";
  }
  if (const auto better = better_of_unit(unit)) {
    if (*better == spec.better) {
      return "";
    }
    const auto other =
        *better == Direction::HigherIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter;
    return fmt::format("metric '{}' is in {}: {} is better, as its unit says (bench add could not tell; 'ej "
                       "bench edit {} --better {}={}' to change)",
                       spec.name, unit, to_string(*better), bench, spec.name, to_string(other));
  }
  if (!infer_better(spec, unit).reason.empty()) {
    return "";
  }
  return fmt::format(
      "metric '{}': {} is better by default: neither its unit{} nor its name says which way it "
      "improves; set it with 'ej bench edit {} --better {}=higher' (or =lower)",
      spec.name, to_string(spec.better), unit.empty() ? "" : " (" + std::string(unit) + ")", bench,
      spec.name);
}

std::string describe_inference(const std::string& metric, const InferredBetter& inferred)
{
  const auto other =
      inferred.better == Direction::HigherIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter;
  if (inferred.reason.empty()) {
    return fmt::format("{}: {} is better (the default: neither its unit nor its name says, so a unit its "
                       "values show at run time will decide; --better {}={} to change)",
                       metric, to_string(inferred.better), metric, to_string(other));
  }
  return fmt::format("{}: {} is better (inferred from {}; --better {}={} to change)", metric,
                     to_string(inferred.better), inferred.reason, metric, to_string(other));
}

std::vector<std::pair<std::string, InferredBetter>> settle_directions(std::vector<MetricSpec>& specs,
                                                                      const std::vector<std::string>& options)
{
  std::set<std::string> named;
  for (const auto& option : options) {
    apply_better_option(specs, option);
    named.insert(option.substr(0, option.find('=')));
  }
  std::vector<std::pair<std::string, InferredBetter>> inferences;
  for (auto& spec : specs) {
    if (named.contains(spec.name)) {
      continue;
    }
    auto inferred = infer_better(spec);
    spec.better = inferred.better;
    inferences.emplace_back(spec.name, std::move(inferred));
  }
  return inferences;
}

} // namespace ej::measure
