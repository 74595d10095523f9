#include "util/hash.h"
#include "util/time.h"
#include "util/ulid.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace ej::util;

TEST_CASE("sha256 matches the published test vector")
{
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("dates parse and format in UTC")
{
  const auto ms = parse_utc("2026-11-30T22:17:42Z");
  REQUIRE(ms.has_value());
  CHECK(format_utc(*ms) == "2026-11-30T22:17:42Z");
  CHECK(format_date(*parse_utc("2025-01-02")) == "2025-01-02");
  CHECK_FALSE(parse_utc("2025-02-31").has_value());
  CHECK_FALSE(parse_utc("yesterday").has_value());
  CHECK_FALSE(parse_utc("2025-01-02T10:00junk").has_value());
}

TEST_CASE("ULIDs are 26 characters and sort by time")
{
  const auto a = make_ulid(1000);
  const auto b = make_ulid(2000);
  CHECK(a.size() == 26);
  CHECK(a < b);
}

TEST_CASE("a span of time is said in its largest whole unit")
{
  CHECK(ej::util::spoken_span(0) == "0 seconds");
  CHECK(ej::util::spoken_span(1'999) == "1 second");
  CHECK(ej::util::spoken_span(59'000) == "59 seconds");
  CHECK(ej::util::spoken_span(60'000) == "1 minute");
  CHECK(ej::util::spoken_span(3 * 3'600'000 + 59 * 60'000) == "3 hours");
  CHECK(ej::util::spoken_span(-3 * 86'400'000 - 5) == "3 days");
}

TEST_CASE("a date is the day format_utc names, before the epoch, at day boundaries and past four digits")
{
  std::vector<std::int64_t> moments = {0,
                                       -1,
                                       1,
                                       86'399'999,
                                       86'400'000,
                                       -86'400'000,
                                       -86'400'001,
                                       *parse_utc("2024-02-29T23:59:59Z"),
                                       *parse_utc("2100-03-01"),
                                       *parse_utc("1000-01-01"),
                                       *parse_utc("1000-01-01") - 1,
                                       *parse_utc("9999-12-31T23:59:59Z"),
                                       *parse_utc("9999-12-31T23:59:59Z") + 1000};
  for (std::int64_t ms = -40'000'000'000'000; ms < 260'000'000'000'000;
       ms += std::int64_t{86'400'000} * 367 + 3'600'123) {
    moments.push_back(ms);
  }
  for (const auto ms : moments) {
    INFO(ms);
    CHECK(format_date(ms) == format_utc(ms).substr(0, format_utc(ms).find('T')));
  }
}
