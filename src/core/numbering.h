#pragma once

#include <optional>
#include <string>
#include <string_view>

// How attempts and runs are named. A number (#12, run #5) is given once, for good: by this
// machine while its journal is not shared, by the shared remote's claim once it is (see
// store/numbering.h). Until the remote has given one, an attempt or run has a provisional number
// made from the random part of its id, shown as @k3f9qx: the same on every machine that sees it,
// and still accepted after the real number is given.
namespace ej::core {

// Numbers from here on are provisional: k_provisional_base + 30 bits of the id.
inline constexpr int k_provisional_base = 1 << 30;

inline bool is_provisional(long long number)
{
  return number >= k_provisional_base;
}

// The provisional number of a creation event's id (a ULID): its first six random characters.
int provisional_number(std::string_view ulid);
// "#12", or "@k3f9qx" for a provisional number.
std::string number_label(long long number);
// "12" where a column or a '#' already says it is a number, or "@k3f9qx" for a provisional one.
std::string number_text(long long number);
// The six characters of "@k3f9qx" (without '@'), as they appear in the id, in upper case.
std::optional<std::string> provisional_id_part(std::string_view text);
// Parses "@k3f9qx" into its provisional number.
std::optional<int> parse_provisional(std::string_view text);

} // namespace ej::core
