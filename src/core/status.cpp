#include "core/status.h"

#include "core/numbering.h"

#include <array>

namespace ej::core {

namespace {

constexpr std::array<std::pair<Status, std::string_view>, 7> k_names{{
  {Status::Proposed, "proposed"},
  {Status::Running, "running"},
  {Status::Adopted, "adopted"},
  {Status::Rejected, "rejected"},
  {Status::Blocked, "blocked"},
  {Status::Inconclusive, "inconclusive"},
  {Status::Superseded, "superseded"},
}};

} // namespace

std::string_view to_string(Status status)
{
  for (const auto& [value, name] : k_names) {
    if (value == status) {
      return name;
    }
  }
  return "unknown";
}

std::optional<Status> parse_status(std::string_view text)
{
  for (const auto& [value, name] : k_names) {
    if (name == text) {
      return value;
    }
  }
  return std::nullopt;
}

const std::vector<Status>& all_statuses()
{
  static const std::vector<Status> statuses = [] {
    std::vector<Status> out;
    for (const auto& entry : k_names) {
      out.push_back(entry.first);
    }
    return out;
  }();
  return statuses;
}

std::string status_names()
{
  std::string out;
  for (const auto& entry : k_names) {
    if (!out.empty()) {
      out += ' ';
    }
    out += entry.second;
  }
  return out;
}

bool reason_required(Status status)
{
  return status == Status::Rejected || status == Status::Blocked || status == Status::Inconclusive ||
         status == Status::Superseded;
}

std::string resolved_text(const std::vector<int>& by)
{
  std::string out;
  for (std::size_t i = 0; i < by.size(); ++i) {
    out += i == 0 ? "resolved by " : i + 1 == by.size() ? " and " : ", ";
    out += number_label(by[i]);
  }
  return out;
}

} // namespace ej::core
