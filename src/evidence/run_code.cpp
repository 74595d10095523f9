#include "evidence/run_code.h"

#include "core/numbering.h"

#include <algorithm>

namespace ej::evidence {

namespace {

bool same_code(const core::GitContext& a, const core::GitContext& b)
{
  return a.commit == b.commit && a.dirty == b.dirty && a.diff_blob == b.diff_blob;
}

} // namespace

std::vector<CodeGroup> code_of_runs(const core::GitContext& attempt, const std::vector<core::RunRecord>& runs)
{
  std::vector<const core::RunRecord*> ascending;
  for (const auto& run : runs) {
    if (run.status != core::RunStatus::Imported) {
      ascending.push_back(&run);
    }
  }
  std::sort(ascending.begin(), ascending.end(),
            [](const auto* a, const auto* b) { return a->number < b->number; });
  std::vector<CodeGroup> groups;
  for (const auto* run : ascending) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const CodeGroup& g) { return same_code(g.git, run->git); });
    if (group == groups.end()) {
      groups.push_back({run->git, {}, same_code(attempt, run->git)});
      group = std::prev(groups.end());
    }
    group->runs.push_back(run->number);
  }
  std::stable_partition(groups.begin(), groups.end(), [](const CodeGroup& g) { return g.same_as_attempt; });
  return groups;
}

std::string runs_label(const std::vector<int>& runs)
{
  std::string out = runs.size() == 1 ? "run " : "runs ";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out += (i == 0 ? "" : ", ") + core::number_label(runs[i]);
  }
  return out;
}

} // namespace ej::evidence
