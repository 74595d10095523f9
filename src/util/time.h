#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ej::util {

// Milliseconds since the Unix epoch, UTC. EJ_NOW (an ISO date or date-time) fixes the clock,
// so that scripted replays such as the EAGLE-3 example produce the same journal every time.
std::int64_t now_ms();

// "2026-11-30T22:17:42Z" (seconds precision, UTC).
std::string format_utc(std::int64_t ms);
// "2026-11-30".
std::string format_date(std::int64_t ms);
// Accepts "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS]" with an optional "Z"; UTC.
std::optional<std::int64_t> parse_utc(std::string_view text);

// A span of time as people say it, rounded down to its largest unit: "40 seconds", "3 minutes",
// "1 hour", "3 days". Negative spans are said as their size.
std::string spoken_span(std::int64_t ms);

// A monotonic clock in nanoseconds, for measuring durations.
std::int64_t monotonic_ns();

} // namespace ej::util
