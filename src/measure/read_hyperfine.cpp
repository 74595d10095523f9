// hyperfine: --export-json results (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

std::vector<std::string> commands_of(const nlohmann::json& results)
{
  std::vector<std::string> commands;
  for (std::size_t i = 0; i < results.size(); ++i) {
    commands.push_back(fmt::format("{}: '{}'", i, results[i].value("command", "")));
  }
  return commands;
}

// hyperfine's ARG: an exact command string first, then a 0-based index.
std::vector<std::size_t> select_commands(const MetricSpec& spec, const nlohmann::json& results)
{
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (spec.arg.empty() || results[i].value("command", "") == spec.arg) {
      chosen.push_back(i);
    }
  }
  if (chosen.empty() && !spec.arg.empty() && spec.arg.find_first_not_of("0123456789") == std::string::npos &&
      spec.arg.size() < 9 && std::stoul(spec.arg) < results.size()) {
    chosen.push_back(std::stoul(spec.arg));
  }
  if (chosen.empty()) {
    throw Error(
        "metric '{}': the hyperfine results in {} have no command '{}'; select one by its exact text or "
        "index: {}",
        spec.name, detail::source_name(spec), spec.arg, util::join(commands_of(results), ", "));
  }
  return chosen;
}

} // namespace

std::vector<ExtractedValue> read_hyperfine(const MetricSpec& spec, std::string_view text)
{
  const auto document = parse_json_output(spec, text);
  const auto& results =
      tool_array(spec, document, "results", "hyperfine's",
                 "run hyperfine with --export-json FILE and read it with 'hyperfine:@FILE'");
  std::vector<ExtractedValue> values;
  for (const auto index : select_commands(spec, results)) {
    const auto& result = results[index];
    const std::string command = result.value("command", "");
    if (!result.contains("times") || !result["times"].is_array()) {
      throw Error(
          "metric '{}': hyperfine result '{}' in {} has no 'times' array: use hyperfine 1.10 or newer",
          spec.name, command, detail::source_name(spec));
    }
    const auto& times = result["times"];
    const auto exit_codes = result.value("exit_codes", nlohmann::json::array());
    for (std::size_t i = 0; i < times.size(); ++i) {
      const std::string where = fmt::format("time {} of '{}'", i, command);
      auto value = detail::make_value(command, json_number(spec, times[i], where), "s");
      // With --ignore-failure a failed run still has a time, but it measured something else.
      if (i < exit_codes.size() && exit_codes[i].is_number_integer() && exit_codes[i].get<long long>() != 0) {
        value.skipped = true;
        value.note = fmt::format("exit code {}", exit_codes[i].get<long long>());
      }
      values.push_back(std::move(value));
    }
  }
  if (values.empty()) {
    throw Error("metric '{}': hyperfine recorded no times{} in {}", spec.name,
                spec.arg.empty() ? std::string() : " for '" + spec.arg + "'", detail::source_name(spec));
  }
  return values;
}

} // namespace ej::measure
