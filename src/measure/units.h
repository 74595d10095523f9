#pragma once

// Units as a model, not a label: what a unit string means, so that values are converted
// between compatible units and a conversion that makes no sense is refused.
//
//   time       ns, us (µs, usec), ms, s (sec), min, h
//   size       B, kB MB GB TB (decimal; KB is read as kB), KiB MiB GiB TiB, bit Mbit Gbit
//   byte rate  any size per any time: B/s, MB/s, GB/s, GiB/s, GBps, Gbit/s, Gbps
//   rate       THING per time: tok/s (tokens/s), req/s (requests/s), items/s, it/s, FLOP/s
//              (GFLOP/s, TFLOPS), or any other word: frames/s, frames/ms
//   count      THING alone: tok, req, items, or any other word ("6 frames")
//   percent    %, percent, pct

#include <optional>
#include <string>
#include <string_view>

namespace ej::measure {

enum class Dimension { Time, Size, ByteRate, Rate, Count, Percent };

// How many base units (s, B, B/s, THING/s, THING, %) one unit is: num/den * 10^pow10 * 2^pow2.
// Exact parts rather than one double, so that 1500 ns is exactly 1.5 us.
struct Scale {
  int pow10 = 0;
  int pow2 = 0;
  double num = 1;
  double den = 1;

  bool operator==(const Scale&) const = default;
};

struct Unit {
  std::string symbol; // ej's spelling: "us" for µs and usec, "tok/s" for tokens/s
  Dimension dimension = Dimension::Count;
  std::string thing; // what a rate or count counts ("tok", "req", "items"); empty otherwise
  Scale scale;

  bool operator==(const Unit&) const = default;
};

// The unit a text names, tolerant of common spellings ("usec", "μs", "tokens/s", "GB/s",
// "(ms)"); nullopt for text that is not one.
std::optional<Unit> parse_unit(std::string_view text);
// parse_unit's symbol when the text is a unit, else the text as written (trimmed).
std::string canonical_unit(std::string_view text);

bool convertible(const Unit& from, const Unit& to);
// value in `from` expressed in `to`; throws ej::Error when they measure different things.
double convert(double value, const Unit& from, const Unit& to);

// "a time", "a size", "a byte rate", "a rate of tok", "a count of items", "a percentage".
std::string describe_dimension(const Unit& unit);

// The unit spelled out in a key or a name: "Median TTFT (ms)", "Output token throughput (tok/s)",
// "p99_itl_ms", "latency_us", "tok_s", "bytes_per_second"; nullopt when it names none.
std::optional<Unit> unit_in_name(std::string_view name);

// Higher is better for rates (GB/s, tok/s), lower for times and sizes; nullopt for counts and
// percentages, which say nothing by themselves.
std::optional<bool> higher_is_better(const Unit& unit);

} // namespace ej::measure
