#pragma once

#include <string>
#include <string_view>
#include <vector>

// Parameter values as `--param` takes them: a list, where an item may be a range.
namespace ej::core {

// "1024..4096:1024" -> 1024, 2048, 3072, 4096: hyperfine's --parameter-scan with
// --parameter-step-size, both ends included, the step 1 when omitted. Decimals work with a
// decimal step ("0.1..0.5:0.1"), written with as many decimals as the ends and step have, exactly
// (no binary rounding: 0.3 is 0.3). Throws ej::UsageError on a malformed or empty range, a step
// that is not positive, or more than k_max_range_values values.
std::vector<std::string> expand_range(std::string_view range);

// "8,16,1024..4096:1024" -> each item, a range expanded in place. An item is a range when it
// starts with a digit or a sign and holds ".."; any other is taken as it is ("../build", "naive").
std::vector<std::string> expand_param_values(std::string_view list);

inline constexpr std::size_t k_max_range_values = 10'000;

} // namespace ej::core
