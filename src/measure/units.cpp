#include "measure/units.h"

#include "util/error.h"
#include "util/strings.h"

#include <array>
#include <cctype>
#include <cmath>
#include <vector>

namespace ej::measure {

namespace {

struct Spelling {
  std::string_view text;
  std::string_view symbol;
  Scale scale;
};

// clang-format off
constexpr std::array k_times{
    Spelling{"ns", "ns", {-9}}, Spelling{"nsec", "ns", {-9}}, Spelling{"nanosecond", "ns", {-9}},
    Spelling{"nanoseconds", "ns", {-9}},
    Spelling{"us", "us", {-6}}, Spelling{"usec", "us", {-6}}, Spelling{"\xC2\xB5s", "us", {-6}}, // micro sign
    Spelling{"\xCE\xBCs", "us", {-6}}, // Greek mu
    Spelling{"microsecond", "us", {-6}}, Spelling{"microseconds", "us", {-6}},
    Spelling{"ms", "ms", {-3}}, Spelling{"msec", "ms", {-3}}, Spelling{"millisecond", "ms", {-3}},
    Spelling{"milliseconds", "ms", {-3}},
    Spelling{"s", "s", {}}, Spelling{"sec", "s", {}}, Spelling{"secs", "s", {}}, Spelling{"second", "s", {}},
    Spelling{"seconds", "s", {}},
    Spelling{"min", "min", {0, 0, 60}}, Spelling{"mins", "min", {0, 0, 60}}, Spelling{"minute", "min", {0, 0, 60}},
    Spelling{"minutes", "min", {0, 0, 60}},
    Spelling{"h", "h", {0, 0, 3600}}, Spelling{"hr", "h", {0, 0, 3600}}, Spelling{"hrs", "h", {0, 0, 3600}},
    Spelling{"hour", "h", {0, 0, 3600}}, Spelling{"hours", "h", {0, 0, 3600}},
};

constexpr std::array k_sizes{
    Spelling{"B", "B", {}}, Spelling{"byte", "B", {}}, Spelling{"bytes", "B", {}},
    Spelling{"kB", "kB", {3}}, Spelling{"KB", "kB", {3}}, Spelling{"MB", "MB", {6}}, Spelling{"GB", "GB", {9}},
    Spelling{"TB", "TB", {12}},
    Spelling{"KiB", "KiB", {0, 10}}, Spelling{"MiB", "MiB", {0, 20}}, Spelling{"GiB", "GiB", {0, 30}},
    Spelling{"TiB", "TiB", {0, 40}},
    Spelling{"bit", "bit", {0, -3}}, Spelling{"bits", "bit", {0, -3}}, Spelling{"kbit", "kbit", {3, -3}},
    Spelling{"Mbit", "Mbit", {6, -3}}, Spelling{"Gbit", "Gbit", {9, -3}}, Spelling{"Tbit", "Tbit", {12, -3}},
};

// Things counted, and the rates of them.
constexpr std::array k_things{
    Spelling{"tok", "tok", {}}, Spelling{"token", "tok", {}}, Spelling{"tokens", "tok", {}},
    Spelling{"req", "req", {}}, Spelling{"request", "req", {}}, Spelling{"requests", "req", {}},
    Spelling{"item", "items", {}}, Spelling{"items", "items", {}},
    Spelling{"it", "it", {}}, Spelling{"iter", "it", {}}, Spelling{"iters", "it", {}},
    Spelling{"iteration", "it", {}}, Spelling{"iterations", "it", {}},
    Spelling{"op", "ops", {}}, Spelling{"ops", "ops", {}},
    Spelling{"FLOP", "FLOP", {}}, Spelling{"kFLOP", "kFLOP", {3}}, Spelling{"MFLOP", "MFLOP", {6}},
    Spelling{"GFLOP", "GFLOP", {9}}, Spelling{"TFLOP", "TFLOP", {12}}, Spelling{"PFLOP", "PFLOP", {15}},
    Spelling{"count", "count", {}},
};
// clang-format on

bool is_long_word(std::string_view text)
{
  return text.size() >= 3 && text.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string_view::npos;
}

// Exact spellings, and long words in any case ("Seconds", "Tokens").
template <std::size_t N>
const Spelling* find_spelling(const std::array<Spelling, N>& table, std::string_view text)
{
  for (const auto& entry : table) {
    if (entry.text == text) {
      return &entry;
    }
  }
  const std::string lower = util::to_lower(text);
  for (const auto& entry : table) {
    if (is_long_word(entry.text) && entry.text == lower) {
      return &entry;
    }
  }
  return nullptr;
}

bool is_word(std::string_view text)
{
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text.front()))) {
    return false;
  }
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

Unit make_unit(std::string_view symbol, Dimension dimension, Scale scale, std::string_view thing = "")
{
  return Unit{std::string(symbol), dimension, std::string(thing), scale};
}

// The numerator of a rate: a size, or a thing (known or any word).
std::optional<Unit> parse_numerator(std::string_view text)
{
  if (const auto* size = find_spelling(k_sizes, text)) {
    return make_unit(size->symbol, Dimension::Size, size->scale);
  }
  if (const auto* thing = find_spelling(k_things, text)) {
    // A FLOP count is counted in FLOP whatever its prefix.
    const bool flop = thing->symbol.ends_with("FLOP");
    return make_unit(thing->symbol, Dimension::Count, thing->scale, flop ? "FLOP" : thing->symbol);
  }
  if (is_word(text)) {
    return make_unit(text, Dimension::Count, {}, text);
  }
  return std::nullopt;
}

std::optional<Unit> make_rate(std::string_view numerator, std::string_view denominator)
{
  const auto* time = find_spelling(k_times, util::trim(denominator));
  auto top = parse_numerator(util::trim(numerator));
  if (time == nullptr || !top) {
    return std::nullopt;
  }
  Unit rate;
  rate.symbol = top->symbol + "/" + std::string(time->symbol);
  rate.dimension = top->dimension == Dimension::Size ? Dimension::ByteRate : Dimension::Rate;
  rate.thing = top->thing;
  rate.scale = Scale{top->scale.pow10 - time->scale.pow10, top->scale.pow2 - time->scale.pow2,
                     top->scale.num * time->scale.den, top->scale.den * time->scale.num};
  return rate;
}

double times_power_of_ten(double value, int exponent)
{
  // Multiplying or dividing by an exact power of ten rounds once.
  double power = 1.0;
  for (int i = 0; i < std::abs(exponent); ++i) {
    power *= 10.0;
  }
  return exponent >= 0 ? value * power : value / power;
}

std::vector<std::string> name_words(std::string_view name)
{
  std::vector<std::string> words;
  std::string word;
  for (char c : name) {
    if (c == '_' || c == ' ' || c == '-' || c == '.' || c == '/') {
      if (!word.empty()) {
        words.push_back(word);
      }
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) {
    words.push_back(word);
  }
  return words;
}

// A size written in a name, where case is often lost: "rss_mib", "mem_GB".
std::optional<Unit> size_in_name(const std::string& word)
{
  if (const auto* size = find_spelling(k_sizes, word)) {
    if (size->symbol != "B" && size->symbol != "bit") {
      return make_unit(size->symbol, Dimension::Size, size->scale);
    }
  }
  const std::string lower = util::to_lower(word);
  for (const auto& entry : k_sizes) {
    if (entry.text.size() >= 2 && util::to_lower(entry.text) == lower && !entry.text.ends_with("bit")) {
      return make_unit(entry.symbol, Dimension::Size, entry.scale);
    }
  }
  if (lower == "bytes") {
    return make_unit("B", Dimension::Size, {});
  }
  return std::nullopt;
}

// A rate's numerator in a name ("tok_s", "gb_s"): a size or a known thing, never any word
// ("wall_s" is a time).
std::optional<std::string> numerator_in_name(const std::string& word)
{
  if (const auto size = size_in_name(word)) {
    return size->symbol;
  }
  if (const auto* thing = find_spelling(k_things, word); thing != nullptr && thing->symbol != "count") {
    return std::string(thing->symbol);
  }
  return std::nullopt;
}

} // namespace

std::optional<Unit> parse_unit(std::string_view text)
{
  text = util::trim(text);
  if (text.size() >= 2 &&
      ((text.front() == '(' && text.back() == ')') || (text.front() == '[' && text.back() == ']'))) {
    text = util::trim(text.substr(1, text.size() - 2));
  }
  if (text.empty()) {
    return std::nullopt;
  }
  if (text == "%" || text == "percent" || text == "pct") {
    return make_unit("%", Dimension::Percent, {});
  }
  if (const auto* time = find_spelling(k_times, text)) {
    return make_unit(time->symbol, Dimension::Time, time->scale);
  }
  if (const auto* size = find_spelling(k_sizes, text)) {
    return make_unit(size->symbol, Dimension::Size, size->scale);
  }
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    return make_rate(text.substr(0, slash), text.substr(slash + 1));
  }
  if (const auto per = text.find(" per "); per != std::string_view::npos) {
    return make_rate(text.substr(0, per), text.substr(per + 5));
  }
  // "GBps", "Gbps" (bits, as network people write it), "TFLOPS".
  if (text.ends_with("FLOPS")) {
    return make_rate(text.substr(0, text.size() - 1), "s");
  }
  if (text.size() > 3 && text.ends_with("bps")) {
    return make_rate(std::string(text.substr(0, text.size() - 3)) + "bit", "s");
  }
  if (text.size() > 2 && text.ends_with("Bps")) {
    return make_rate(text.substr(0, text.size() - 2), "s");
  }
  if (const auto* thing = find_spelling(k_things, text)) {
    const bool flop = thing->symbol.ends_with("FLOP");
    return make_unit(thing->symbol, Dimension::Count, thing->scale, flop ? "FLOP" : thing->symbol);
  }
  return std::nullopt;
}

std::string canonical_unit(std::string_view text)
{
  const auto unit = parse_unit(text);
  return unit ? unit->symbol : std::string(util::trim(text));
}

bool convertible(const Unit& from, const Unit& to)
{
  return from.dimension == to.dimension && from.thing == to.thing;
}

double convert(double value, const Unit& from, const Unit& to)
{
  if (!convertible(from, to)) {
    throw Error("cannot convert '{}' ({}) to '{}' ({})", from.symbol, describe_dimension(from), to.symbol,
                describe_dimension(to));
  }
  if (from.scale == to.scale) {
    return value;
  }
  value = value * from.scale.num / from.scale.den;
  value = value * to.scale.den / to.scale.num;
  value = times_power_of_ten(value, from.scale.pow10 - to.scale.pow10);
  return std::ldexp(value, from.scale.pow2 - to.scale.pow2);
}

std::string describe_dimension(const Unit& unit)
{
  switch (unit.dimension) {
  case Dimension::Time:
    return "a time";
  case Dimension::Size:
    return "a size";
  case Dimension::ByteRate:
    return "a byte rate";
  case Dimension::Rate:
    return "a rate of " + unit.thing;
  case Dimension::Count:
    return "a count of " + unit.thing;
  case Dimension::Percent:
    return "a percentage";
  }
  return "a quantity";
}

std::optional<Unit> unit_in_name(std::string_view name)
{
  name = util::trim(name);
  // "Median TTFT (ms)", "latency [us]"
  if (!name.empty() && (name.back() == ')' || name.back() == ']')) {
    const auto open = name.find_last_of(name.back() == ')' ? '(' : '[');
    if (open != std::string_view::npos) {
      if (auto unit = parse_unit(name.substr(open))) {
        return unit;
      }
    }
  }
  const auto words = name_words(name);
  if (words.size() < 2) {
    return std::nullopt;
  }
  // "bytes_per_second", "tokens_per_sec"
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    if (util::to_lower(words[i]) == "per") {
      if (auto rate = make_rate(numerator_in_name(words[i - 1]).value_or(words[i - 1]), words[i + 1])) {
        return rate;
      }
    }
  }
  const std::string& last = words.back();
  const std::string& before = words[words.size() - 2];
  const bool time_word = last == "ns" || last == "us" || last == "ms" || last == "s" || last == "sec";
  // "tok_s", "gb_s" are rates; "wall_s", "p99_itl_ms" are times. Minutes and hours are left
  // out: "ttft_min" is a minimum.
  if (time_word) {
    if (const auto numerator = numerator_in_name(before)) {
      return make_rate(*numerator, last);
    }
    return parse_unit(last);
  }
  if (last == "pct" || last == "percent") {
    return parse_unit("%");
  }
  return size_in_name(last);
}

std::optional<bool> higher_is_better(const Unit& unit)
{
  switch (unit.dimension) {
  case Dimension::Time:
  case Dimension::Size:
    return false;
  case Dimension::ByteRate:
  case Dimension::Rate:
    return true;
  case Dimension::Count:
  case Dimension::Percent:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace ej::measure
