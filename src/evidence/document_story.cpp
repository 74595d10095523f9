#include "evidence/document_story.h"

#include "core/numbering.h"
#include "evidence/document_parts.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ej::evidence::document {

namespace {

std::string label(int number)
{
  return core::number_label(number);
}

// "#4", "#4 and #7", "#4, #5 and #7"
std::string and_list(const std::vector<std::string>& items)
{
  if (items.size() <= 1) {
    return items.empty() ? "" : items.front();
  }
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return util::join(head, ", ") + " and " + items.back();
}

} // namespace

void Story::add(const core::AttemptHistory& history)
{
  const auto& a = history.attempt;
  m_attempts[a.number] = {a.title, a.status};
  for (const auto& change : history.status_changes) {
    m_decisions.push_back({change.time_ms, a.number, change.from, change.to, change.reason});
  }
  m_links.insert(m_links.end(), history.links_out.begin(), history.links_out.end());
}

std::vector<std::string> Story::chains() const
{
  const auto title_of = [&](int number) {
    const auto it = m_attempts.find(number);
    return it == m_attempts.end() ? std::string("(missing)") : inline_text(it->second.title);
  };
  const auto status_of = [&](int number) {
    const auto it = m_attempts.find(number);
    return it == m_attempts.end() ? std::string("missing") : std::string(core::to_string(it->second.status));
  };
  const auto links_of = [&](const std::string& kind) {
    std::vector<core::Link> out;
    std::copy_if(m_links.begin(), m_links.end(), std::back_inserter(out),
                 [&](const core::Link& l) { return l.kind == kind && l.to != l.from; });
    std::sort(out.begin(), out.end(), [](const core::Link& x, const core::Link& y) {
      return std::pair(x.to, x.from) < std::pair(y.to, y.from);
    });
    return out;
  };
  const auto retries = links_of("retry-of");
  const auto retried = [&](int blocked) {
    std::vector<std::string> parts;
    for (const auto& r : retries) {
      if (r.to == blocked) {
        parts.push_back(fmt::format("{}, {}", label(r.from), status_of(r.from)));
      }
    }
    return parts.empty() ? std::string("not tried again yet") : "retried as " + util::join(parts, ", and ");
  };
  std::vector<std::string> out;
  std::set<int> told;                         // blocked attempts whose retries a blocker's sentence told
  std::map<int, std::vector<int>> blocked_by; // blocker -> the attempts it blocks
  for (const auto& link : links_of("blocked-by")) {
    blocked_by[link.to].push_back(link.from);
  }
  for (const auto& [blocker, blocked] : blocked_by) {
    std::vector<std::string> items;
    for (const int b : blocked) {
      items.push_back(fmt::format("{} ({})", label(b), retried(b)));
      told.insert(b);
    }
    if (status_of(blocker) == "adopted") {
      out.push_back(fmt::format("{} {} unblocked {}.", label(blocker), title_of(blocker), and_list(items)));
    } else {
      std::vector<std::string> numbers;
      for (const int b : blocked) {
        numbers.push_back(label(b));
      }
      out.push_back(fmt::format("{} {} ({}) blocks {}.", label(blocker), title_of(blocker),
                                status_of(blocker), and_list(numbers)));
    }
  }
  for (const auto& r : retries) {
    if (told.count(r.to) == 0) {
      out.push_back(fmt::format("{} {} retried {} ({}): {}.", label(r.from), title_of(r.from), label(r.to),
                                status_of(r.to), status_of(r.from)));
    }
  }
  for (const auto& s : links_of("supersedes")) {
    out.push_back(
        fmt::format("{} {} superseded {} {}.", label(s.from), title_of(s.from), label(s.to), title_of(s.to)));
  }
  return out;
}

void Story::write(render::TemplateData& data) const
{
  auto decisions = m_decisions;
  std::stable_sort(decisions.begin(), decisions.end(),
                   [](const Decision& a, const Decision& b) { return a.time_ms < b.time_ms; });
  auto list = render::template_list(decisions.size());
  for (const auto& d : decisions) {
    auto& entry = render::append(list, render::template_object());
    render::put(entry, "date", util::format_date(d.time_ms));
    render::put(entry, "number", core::number_text(d.number));
    render::put(entry, "ref", core::number_label(d.number));
    const auto known = m_attempts.find(d.number);
    render::put(entry, "title", known == m_attempts.end() ? std::string() : cell(known->second.title));
    render::put(entry, "from", d.from);
    render::put(entry, "to", d.to);
    render::put(entry, "reason", cell(d.reason));
    render::put(entry, "has_reason", !d.reason.empty());
  }
  auto chain_list = render::template_list();
  for (const auto& text : chains()) {
    auto& entry = render::append(chain_list, render::template_object());
    render::put(entry, "text", text);
  }
  render::put(data, "has_decisions", !decisions.empty());
  render::put(data, "decisions", std::move(list));
  render::put(data, "has_chains", !chain_list.is_empty_list());
  render::put(data, "chains", std::move(chain_list));
}

} // namespace ej::evidence::document
