#include "core/bench_definition.h"

#include "util/error.h"

namespace ej::core {

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
  return {
    {"argv", definition.argv},
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
    {"metrics", definition.metrics},
    {"primary", definition.primary},
    {"min_effect_pct", definition.min_effect_pct},
  };
}

BenchDefinition bench_definition_from_json(const nlohmann::json& json)
{
  BenchDefinition definition;
  try {
    definition.argv = json.value("argv", std::vector<std::string>{});
    definition.shell = json.value("shell", "");
    definition.cwd = json.value("cwd", "");
    for (const auto& entry : json.value("env", nlohmann::json::array())) {
      definition.env.emplace_back(entry.at("name").get<std::string>(), entry.at("value").get<std::string>());
    }
    for (const auto& axis : json.value("params", nlohmann::json::array())) {
      definition.params.push_back({axis.at("name").get<std::string>(), axis.at("values").get<std::vector<std::string>>()});
    }
    const auto policy = json.value("policy", nlohmann::json::object());
    auto& p = definition.policy;
    p.warmup = policy.value("warmup", p.warmup);
    p.repeat = policy.value("repeat", p.repeat);
    p.adaptive = policy.value("adaptive", p.adaptive);
    p.min_repeats = policy.value("min_repeats", p.min_repeats);
    p.max_repeats = policy.value("max_repeats", p.max_repeats);
    p.max_noise_pct = policy.value("max_noise_pct", p.max_noise_pct);
    p.budget_s = policy.value("budget_s", p.budget_s);
    definition.timeout_s = json.value("timeout_s", 0.0);
    definition.metrics = json.value("metrics", nlohmann::json::array());
    definition.primary = json.value("primary", "");
    definition.min_effect_pct = json.value("min_effect_pct", 0.0);
  } catch (const nlohmann::json::exception& error) {
    throw Error("a stored benchmark definition is malformed ({}); run 'ej fsck'", error.what());
  }
  return definition;
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
