#include "cli/verdict_output.h"

#include "cli/output.h"
#include "evidence/wording.h"

#include <fmt/format.h>

#include <map>

namespace ej::cli {

std::string painted_outcome(measure::Outcome outcome)
{
  return paint(std::string(measure::to_string(outcome)), outcome == measure::Outcome::Improved ? Colour::Green
                                                         : outcome == measure::Outcome::Regressed
                                                             ? Colour::Red
                                                             : Colour::Yellow);
}

std::set<std::string> shared_warnings(const std::vector<evidence::SeriesComparison>& series)
{
  std::map<std::string, int> count;
  for (const auto& s : series) {
    for (const auto& warning : s.comparison.warnings) {
      ++count[warning];
    }
  }
  std::set<std::string> shared;
  for (const auto& [warning, n] : count) {
    if (n > 1) {
      shared.insert(warning);
    }
  }
  return shared;
}

void print_comparison(const evidence::SeriesComparison& s, const std::set<std::string>& said_once)
{
  const auto& c = s.comparison;
  fmt::print("\n{}\n", paint(s.label(), Colour::Bold));
  fmt::print("  median     {} -> {}  (n = {} vs {})\n", evidence::value_text(c.reference_median, s.unit),
             evidence::value_text(c.candidate_median, s.unit), c.n_reference, c.n_candidate);
  auto change = evidence::change_text(c, s.unit);
  if (const auto factor = evidence::factor_text(c, s.quantity); !factor.empty()) {
    change += "  (" + factor + ")";
  }
  fmt::print("  change     {}\n", change);
  if (c.basis == measure::Basis::Test) {
    fmt::print("  interval   {}  ({:.0f}%, {})\n", evidence::interval_text(c, s.unit), c.confidence * 100,
               c.estimate == measure::Estimate::Ratio ? "Hodges-Lehmann ratio" : "Hodges-Lehmann shift");
    fmt::print("  test       {} (Mann-Whitney U, {})\n", evidence::basis_text(c),
               c.exact ? "exact" : "normal approximation");
    fmt::print("  outcome    {}\n", painted_outcome(c.outcome));
  } else {
    fmt::print("  outcome    {}: {}\n", painted_outcome(c.outcome), evidence::basis_text(c));
  }
  for (const auto& warning : c.warnings) {
    if (said_once.count(warning) == 0) {
      fmt::print("  warning    {}\n", warning);
    }
  }
}

} // namespace ej::cli
