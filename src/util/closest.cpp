#include "util/closest.h"

#include "util/strings.h"

#include <algorithm>

namespace ej::util {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
  // Optimal string alignment: three rows of the Damerau-Levenshtein table.
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& names)
{
  const std::size_t allowed = std::max<std::size_t>(1, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& name : names) {
    if (name == word) {
      continue;
    }
    const auto distance = edit_distance(word, name);
    if (distance <= allowed) {
      scored.emplace_back(distance, name);
    } else if (word.size() >= 2 && name.starts_with(word)) {
      scored.emplace_back(allowed + 1, name); // an abbreviation: after every near miss
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [distance, name] : scored) {
    if (std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(std::move(name));
    }
  }
  return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& names)
{
  auto close = closest_names(word, names);
  if (close.empty()) {
    return {};
  }
  if (close.size() > 3) {
    close.resize(3);
  }
  std::vector<std::string> quoted_names;
  for (const auto& name : close) {
    quoted_names.push_back("'" + name + "'");
  }
  if (quoted_names.size() == 1) {
    return "did you mean " + quoted_names.front() + "?";
  }
  const auto last = quoted_names.back();
  quoted_names.pop_back();
  return "did you mean " + join(quoted_names, ", ") + " or " + last + "?";
}

} // namespace ej::util
