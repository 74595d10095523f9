#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::core {

enum class Status { Proposed, Running, Adopted, Rejected, Blocked, Inconclusive, Superseded };

std::string_view to_string(Status status);
std::optional<Status> parse_status(std::string_view text);
const std::vector<Status>& all_statuses();
// "proposed running adopted ..." for error messages and --help.
std::string status_names();
// Rejected, blocked, inconclusive and superseded must say why.
bool reason_required(Status status);
// "resolved by #9" ("resolved by #9 and #12"): a blocked attempt whose retry was adopted since; ""
// when `by` is empty. The status stays blocked, as it was decided; this says what became of it.
std::string resolved_text(const std::vector<int>& by);

} // namespace ej::core
