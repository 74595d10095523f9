#include "core/bench_definition.h"

#include <algorithm>
#include <tuple>

#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace ej::core {

namespace {

// JSON holds UTF-8 only. An argument that is not valid UTF-8 (a Latin-1 file name, raw bytes) is
// stored as {"hex": "..."} so that the benchmark receives it byte for byte, never with U+FFFD.
nlohmann::json argument_json(const std::string& arg)
{
  if (util::is_valid_utf8(arg)) {
    return arg;
  }
  constexpr std::string_view digits = "0123456789abcdef";
  std::string hex;
  for (const char c : arg) {
    hex += digits[static_cast<unsigned char>(c) >> 4];
    hex += digits[static_cast<unsigned char>(c) & 0xf];
  }
  return {{"hex", hex}};
}

std::string argument_from_json(const nlohmann::json& json)
{
  if (json.is_string()) {
    return json.get<std::string>();
  }
  const auto hex = json.at("hex").get<std::string>();
  const auto value = [](char c) -> int {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  std::string arg;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int high = value(hex[i]);
    const int low = value(hex[i + 1]);
    if (high < 0 || low < 0) {
      throw std::invalid_argument("an argument's hex bytes are malformed");
    }
    arg += static_cast<char>(high * 16 + low);
  }
  return arg;
}

} // namespace

bool measures_alike(const BenchDefinition& a, const BenchDefinition& b)
{
  // Which way is better is part of what a metric is; whether it was inferred or given is not.
  const auto reader = [](const MetricSpec& m) {
    return std::tie(m.name, m.kind, m.arg, m.file, m.from_stderr, m.unit, m.better);
  };
  const auto same_axes = [](const std::vector<ParamAxis>& x, const std::vector<ParamAxis>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const ParamAxis& p, const ParamAxis& q) {
      return p.name == q.name && p.values == q.values;
    });
  };
  // A part this build could not read may be exactly where they differ.
  if (!a.metrics_damage.empty() || !b.metrics_damage.empty()) {
    return false;
  }
  return a.argv == b.argv && a.shell == b.shell && a.cwd == b.cwd && a.env == b.env &&
         same_axes(a.params, b.params) && a.policy.warmup == b.policy.warmup && a.build == b.build &&
         a.check == b.check && a.check_every == b.check_every && a.same_output == b.same_output &&
         a.check_times == b.check_times && a.clock_drop_pct == b.clock_drop_pct &&
         a.exclude_throttled == b.exclude_throttled &&
         std::equal(a.metrics.begin(), a.metrics.end(), b.metrics.begin(), b.metrics.end(),
                    [&](const MetricSpec& x, const MetricSpec& y) { return reader(x) == reader(y); });
}

nlohmann::json to_json(const BenchDefinition& definition)
{
  nlohmann::json params = nlohmann::json::array();
  for (const auto& axis : definition.params) {
    params.push_back({{"name", axis.name}, {"values", axis.values}});
  }
  nlohmann::json env = nlohmann::json::array();
  for (const auto& [key, value] : definition.env) {
    env.push_back({{"name", key}, {"value", value}});
  }
  const auto& p = definition.policy;
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& spec : definition.metrics) {
    metrics.push_back(to_json(spec));
  }
  nlohmann::json argv = nlohmann::json::array();
  for (const auto& arg : definition.argv) {
    argv.push_back(argument_json(arg));
  }
  nlohmann::json out = {
      {"argv", argv},
      {"shell", definition.shell},
      {"cwd", definition.cwd},
      {"env", env},
      {"params", params},
      {"policy",
       {{"warmup", p.warmup},
        {"repeat", p.repeat},
        {"adaptive", p.adaptive},
        {"min_repeats", p.min_repeats},
        {"max_repeats", p.max_repeats},
        {"max_noise_pct", p.max_noise_pct},
        {"budget_s", p.budget_s}}},
      {"timeout_s", definition.timeout_s},
      {"metrics", metrics},
      {"primary", definition.primary},
      {"min_effect_pct", definition.min_effect_pct},
  };
  // Written only when set, so that every definition stored before they existed stays as it was.
  if (!definition.build.empty()) {
    out["build"] = definition.build;
  }
  if (!definition.host.empty()) {
    out["host"] = definition.host;
  }
  if (definition.clock_drop_pct != 10) {
    out["clock_drop_pct"] = definition.clock_drop_pct;
  }
  if (definition.exclude_throttled) {
    out["exclude_throttled"] = true;
  }
  if (definition.ci) {
    out["ci"] = true;
  }
  if (!definition.check.empty()) {
    out["check"] = definition.check;
    if (definition.check_every != 1) {
      out["check_every"] = definition.check_every;
    }
  }
  const auto& same = definition.same_output;
  if (same.kind != SameOutput::Kind::None) {
    const char* kind = same.kind == SameOutput::Kind::Stdout ? "stdout"
                       : same.kind == SameOutput::Kind::File ? "file"
                                                             : "metric";
    out["same_output"] = {{"kind", kind}};
    if (same.kind != SameOutput::Kind::Stdout) {
      out["same_output"]["name"] = same.name;
    }
    if (same.kind == SameOutput::Kind::Metric) {
      out["same_output"]["tolerance_pct"] = same.tolerance_pct;
    }
  }
  if (!definition.check_times) {
    out["check_times"] = false; // the default is on: only the opt-out is stored
  }
  if (!definition.floors.empty()) {
    out["floors"] = nlohmann::json::array();
    for (const auto& floor : definition.floors) {
      out["floors"].push_back({{"metric", floor.metric}, {"value", floor.value}});
    }
  }
  return out;
}

namespace {

// A stored number that is missing takes the default; one that is not a finite number (a NaN that
// an older ej let through is stored as null) takes the default too, and is described.
template <typename T>
T number(const nlohmann::json& object, const char* key, T fallback, const char* option,
         std::vector<std::string>& problems)
{
  const auto it = object.find(key);
  if (it == object.end()) {
    return fallback;
  }
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    problems.push_back(
        fmt::format("{} is {}, not a finite number (set it with {})", key, it->dump(), option));
    return fallback;
  }
  return it->get<T>();
}

} // namespace

BenchDefinition bench_definition_from_json(const nlohmann::json& json, std::vector<std::string>& problems)
{
  BenchDefinition definition;
  if (!json.is_object()) {
    problems.push_back(fmt::format("the definition is {}, not an object", json.type_name()));
    return definition;
  }
  try {
    for (const auto& arg : json.value("argv", nlohmann::json::array())) {
      definition.argv.push_back(argument_from_json(arg));
    }
    definition.shell = json.value("shell", "");
    definition.cwd = json.value("cwd", "");
    for (const auto& entry : json.value("env", nlohmann::json::array())) {
      definition.env.emplace_back(entry.at("name").get<std::string>(), entry.at("value").get<std::string>());
    }
    for (const auto& axis : json.value("params", nlohmann::json::array())) {
      definition.params.push_back(
          {axis.at("name").get<std::string>(), axis.at("values").get<std::vector<std::string>>()});
    }
    const auto policy = json.value("policy", nlohmann::json::object());
    auto& p = definition.policy;
    p.warmup = number(policy, "warmup", p.warmup, "--warmup", problems);
    p.repeat = number(policy, "repeat", p.repeat, "--repeat", problems);
    p.adaptive = policy.value("adaptive", p.adaptive);
    p.min_repeats = number(policy, "min_repeats", p.min_repeats, "--min-repeats", problems);
    p.max_repeats = number(policy, "max_repeats", p.max_repeats, "--max-repeats", problems);
    p.max_noise_pct = number(policy, "max_noise_pct", p.max_noise_pct, "--max-noise", problems);
    p.budget_s = number(policy, "budget_s", p.budget_s, "--budget", problems);
    definition.timeout_s = number(json, "timeout_s", 0.0, "--timeout", problems);
    for (const auto& spec : json.value("metrics", nlohmann::json::array())) {
      try {
        definition.metrics.push_back(metric_spec_from_json(spec));
      } catch (const Error& error) {
        definition.metrics_damage = error.what();
        break;
      }
    }
    definition.primary = json.value("primary", "");
    definition.min_effect_pct = number(json, "min_effect_pct", 0.0, "--min-effect", problems);
    definition.build = json.value("build", "");
    definition.host = json.value("host", "");
    definition.clock_drop_pct = number(json, "clock_drop_pct", 10.0, "--clock-drop", problems);
    definition.exclude_throttled = json.value("exclude_throttled", false);
    definition.ci = json.value("ci", false);
    definition.check = json.value("check", "");
    definition.check_times = json.value("check_times", true);
    definition.check_every = number(json, "check_every", 1, "--check-every", problems);
    if (const auto same = json.find("same_output"); same != json.end() && same->is_object()) {
      const auto kind = same->value("kind", "");
      auto& out = definition.same_output;
      out.kind = kind == "stdout"   ? SameOutput::Kind::Stdout
                 : kind == "file"   ? SameOutput::Kind::File
                 : kind == "metric" ? SameOutput::Kind::Metric
                                    : SameOutput::Kind::None;
      if (out.kind == SameOutput::Kind::None) {
        problems.push_back(fmt::format("same_output has the kind '{}' (set it with --same-output)", kind));
      }
      out.name = same->value("name", "");
      out.tolerance_pct = number(*same, "tolerance_pct", 0.0, "--tolerance", problems);
    }
    for (const auto& floor : json.value("floors", nlohmann::json::array())) {
      definition.floors.push_back(
          {floor.at("metric").get<std::string>(), number(floor, "value", 0.0, "--floor", problems)});
    }
  } catch (const std::exception& error) { // a JSON type error, malformed hex bytes
    problems.push_back(error.what());
  }
  return definition;
}

BenchDefinition readable_bench_definition(const nlohmann::json& json)
{
  std::vector<std::string> problems;
  return bench_definition_from_json(json, problems);
}

bool stored_measure_alike(const nlohmann::json& a, const nlohmann::json& b)
{
  std::vector<std::string> problems;
  const auto first = bench_definition_from_json(a, problems);
  const auto second = bench_definition_from_json(b, problems);
  return problems.empty() && measures_alike(first, second);
}

BenchDefinition bench_definition_from_json(const nlohmann::json& json)
{
  std::vector<std::string> problems;
  auto definition = bench_definition_from_json(json, problems);
  if (!problems.empty()) {
    throw Error(
        "the stored benchmark definition is damaged: {}; store a repaired revision with 'ej bench edit "
        "NAME' and those options",
        fmt::join(problems, "; "));
  }
  return definition;
}

SameOutput parse_same_output(const std::string& text)
{
  if (text.empty() || text == "@") {
    throw UsageError("--same-output takes stdout, @FILE or a metric's name, e.g. --same-output @result.bin");
  }
  if (text == "stdout") {
    return {SameOutput::Kind::Stdout, "", 0};
  }
  if (text.front() == '@') {
    return {SameOutput::Kind::File, text.substr(1), 0};
  }
  return {SameOutput::Kind::Metric, text, 0};
}

MetricFloor parse_floor(const std::string& text)
{
  const auto equals = text.find('=');
  const std::string value = equals == std::string::npos
                                ? std::string()
                                : std::string(util::trim(std::string_view(text).substr(equals + 1)));
  double number = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (equals == 0 || equals == std::string::npos || value.empty() || ec != std::errc() ||
      end != value.data() + value.size() || !std::isfinite(number)) {
    throw UsageError("--floor '{}' must look like METRIC=VALUE, VALUE in the metric's unit, e.g. --floor "
                     "copy_ms=0.8",
                     text);
  }
  return {text.substr(0, equals), number};
}

std::string describe(const SameOutput& same)
{
  switch (same.kind) {
  case SameOutput::Kind::Stdout:
    return "stdout";
  case SameOutput::Kind::File:
    return "@" + same.name;
  case SameOutput::Kind::Metric:
    return same.tolerance_pct > 0 ? fmt::format("{} within {:g}%", same.name, same.tolerance_pct) : same.name;
  case SameOutput::Kind::None:
    break;
  }
  return "";
}

std::vector<ParamValues> param_combinations(const std::vector<ParamAxis>& axes,
                                            const std::map<std::string, std::vector<std::string>>& chosen)
{
  std::vector<ParamValues> combinations{{}};
  for (const auto& axis : axes) {
    const auto it = chosen.find(axis.name);
    const auto& values = it != chosen.end() ? it->second : axis.values;
    std::vector<ParamValues> next;
    for (const auto& partial : combinations) {
      for (const auto& value : values) {
        auto extended = partial;
        extended[axis.name] = value;
        next.push_back(std::move(extended));
      }
    }
    combinations = std::move(next);
  }
  return combinations;
}

std::string substitute(std::string_view text, const ParamValues& values)
{
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const auto close = text.find('}', i);
      if (close != std::string_view::npos) {
        const auto it = values.find(std::string(text.substr(i + 1, close - i - 1)));
        if (it != values.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string describe(const ParamValues& values)
{
  std::string out;
  for (const auto& [name, value] : values) {
    if (!out.empty()) {
      out += ',';
    }
    out += name + "=" + value;
  }
  return out;
}

} // namespace ej::core
