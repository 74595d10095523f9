#include "util/time.h"

#include "util/error.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace ej::util {

std::int64_t now_ms()
{
  if (const char* fixed = std::getenv("EJ_NOW"); fixed != nullptr && *fixed != '\0') {
    if (auto parsed = parse_utc(fixed)) {
      return *parsed;
    }
    throw Error("EJ_NOW='{}' is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, or unset it", fixed);
  }
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

std::tm to_tm(std::int64_t ms)
{
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  if (ms < 0 && ms % 1000 != 0) {
    --seconds;
  }
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}

} // namespace

std::string format_utc(std::int64_t ms)
{
  const auto tm = to_tm(ms);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string format_date(std::int64_t ms)
{
  // The civil date from the days since the epoch (std::chrono's calendar, no time zone to look
  // up): gmtime_r and strftime took 20 us a date, and a document dates every change of status.
  // Years of four digits only; any other is left to strftime, which says how it prints them.
  constexpr std::int64_t k_ms_per_day = 86'400'000;
  const auto days = ms / k_ms_per_day - (ms % k_ms_per_day < 0 ? 1 : 0);
  if (days >= -354'285 && days <= 2'932'896) { // 1000-01-01 .. 9999-12-31
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
    const int year = static_cast<int>(date.year());
    const auto month = static_cast<unsigned>(date.month());
    const auto day = static_cast<unsigned>(date.day());
    std::string out(10, '-');
    const auto digits = [&](std::size_t at, unsigned value, std::size_t width) {
      for (std::size_t i = width; i-- > 0; value /= 10) {
        out[at + i] = static_cast<char>('0' + value % 10);
      }
    };
    digits(0, static_cast<unsigned>(year), 4);
    digits(5, month, 2);
    digits(8, day, 2);
    return out;
  }
  const auto tm = to_tm(ms);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &tm);
  return buffer;
}

std::string spoken_span(std::int64_t ms)
{
  const std::int64_t seconds = (ms < 0 ? -ms : ms) / 1000;
  const auto said = [](std::int64_t n, const char* unit) {
    return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
  };
  if (seconds >= 86400) {
    return said(seconds / 86400, "day");
  }
  if (seconds >= 3600) {
    return said(seconds / 3600, "hour");
  }
  if (seconds >= 60) {
    return said(seconds / 60, "minute");
  }
  return said(seconds, "second");
}

std::optional<std::int64_t> parse_utc(std::string_view text)
{
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const std::string s(text);
  int consumed = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &consumed) != 3 || consumed != 10) {
    return std::nullopt;
  }
  std::string_view rest = text.substr(10);
  if (!rest.empty()) {
    if (rest.front() != 'T' && rest.front() != ' ') {
      return std::nullopt;
    }
    const std::string time_part(rest.substr(1));
    int used = 0;
    if (std::sscanf(time_part.c_str(), "%2d:%2d%n", &hour, &minute, &used) != 2 || used != 5) {
      return std::nullopt;
    }
    std::string_view tail = std::string_view(time_part).substr(5);
    if (!tail.empty() && tail.front() == ':') {
      const std::string seconds_part(tail.substr(1));
      if (std::sscanf(seconds_part.c_str(), "%2d%n", &second, &used) != 1 || used != 2) {
        return std::nullopt;
      }
      tail = tail.substr(3);
    }
    if (tail == "Z") {
      tail = {};
    }
    if (!tail.empty()) {
      return std::nullopt;
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const std::time_t seconds = timegm(&tm);
  if (to_tm(static_cast<std::int64_t>(seconds) * 1000).tm_mday != day) {
    return std::nullopt; // 2026-02-31 and the like
  }
  return static_cast<std::int64_t>(seconds) * 1000;
}

std::int64_t monotonic_ns()
{
  using namespace std::chrono;
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
}

} // namespace ej::util
