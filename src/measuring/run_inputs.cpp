#include "measuring/run_inputs.h"

#include <algorithm>
#include <map>

namespace ej::measuring {

run::ProbeSpec probe_from_json(const std::string& name, const nlohmann::json& definition,
                               const std::filesystem::path& work_tree)
{
  run::ProbeSpec probe;
  probe.name = name;
  probe.argv = definition.value("argv", std::vector<std::string>{});
  const auto shell = definition.value("shell", "");
  if (!shell.empty()) {
    probe.shell = shell;
  }
  probe.cwd = work_tree;
  if (const auto timeout = definition.find("timeout_s");
      timeout != definition.end() && timeout->is_number()) {
    probe.timeout_s = timeout->get<double>(); // a damaged (null) timeout keeps the default
  }
  return probe;
}

nlohmann::json chosen_params_json(const std::vector<core::ParamValues>& combinations)
{
  std::map<std::string, std::vector<std::string>> axes;
  for (const auto& values : combinations) {
    for (const auto& [name, value] : values) {
      auto& list = axes[name];
      if (std::find(list.begin(), list.end(), value) == list.end()) {
        list.push_back(value);
      }
    }
  }
  return axes;
}

} // namespace ej::measuring
