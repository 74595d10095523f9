#include "evidence/run_set.h"

#include "core/numbering.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

std::int64_t RunSet::time_ms() const
{
  std::int64_t newest = 0;
  for (const auto& run : runs) {
    newest = std::max(newest, run.started_ms);
  }
  return newest;
}

bool RunSet::imported() const
{
  return !runs.empty() && std::all_of(runs.begin(), runs.end(), [](const auto& run) {
    return run.status == core::RunStatus::Imported;
  });
}

namespace {

bool judged_status(core::RunStatus status)
{
  return status == core::RunStatus::Finished || status == core::RunStatus::Imported;
}

} // namespace

bool usable(const core::RunRecord& run)
{
  return !run.withdrawn() && judged_status(run.status);
}

bool usable(const core::RunHead& run)
{
  return !run.withdrawn && judged_status(run.status);
}

std::string withdrawn_text(const core::RunRecord& run)
{
  return fmt::format("run {} was withdrawn on {}{}", core::number_label(run.number),
                     util::format_date(run.withdrawn_ms),
                     run.withdrawn_reason.empty() ? "" : ": " + run.withdrawn_reason);
}

bool listed_in_documents(const core::RunRecord& run, const std::function<bool()>& recorded_a_repeat)
{
  if (run.withdrawn()) {
    return false;
  }
  if (usable(run) || run.status == core::RunStatus::Started || run.status == core::RunStatus::BuildFailed) {
    return true;
  }
  return recorded_a_repeat();
}

core::ParamValues parse_params_label(const std::string& label)
{
  core::ParamValues values;
  for (const auto& pair : util::split(label, ',')) {
    const auto equals = pair.find('=');
    if (equals != std::string::npos) {
      values[pair.substr(0, equals)] = pair.substr(equals + 1);
    }
  }
  return values;
}

std::string params_without(const std::string& label, const core::ParamValues& axes)
{
  if (axes.empty()) {
    return label;
  }
  auto values = parse_params_label(label);
  for (const auto& [axis, value] : axes) {
    values.erase(axis);
  }
  return core::describe(values);
}

bool matches_selector(const std::string& params_label, const core::ParamValues& selector)
{
  if (selector.empty()) {
    return true;
  }
  const auto values = parse_params_label(params_label);
  return std::all_of(selector.begin(), selector.end(), [&](const auto& wanted) {
    const auto found = values.find(wanted.first);
    return found != values.end() && found->second == wanted.second;
  });
}

} // namespace ej::evidence
