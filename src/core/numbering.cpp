#include "core/numbering.h"

#include <fmt/format.h>

#include <cctype>

namespace ej::core {

namespace {

constexpr std::string_view k_crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr std::size_t k_time_chars = 10; // a ULID: 10 characters of time, 16 of randomness
constexpr std::size_t k_short_chars = 6; // 30 bits

int digit_value(char c)
{
  const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto at = k_crockford.find(upper);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

std::optional<int> decode(std::string_view chars)
{
  if (chars.size() != k_short_chars) {
    return std::nullopt;
  }
  int value = 0;
  for (const char c : chars) {
    const int digit = digit_value(c);
    if (digit < 0) {
      return std::nullopt;
    }
    value = value * 32 + digit;
  }
  return value;
}

} // namespace

int provisional_number(std::string_view ulid)
{
  const auto part = ulid.size() >= k_time_chars + k_short_chars ? ulid.substr(k_time_chars, k_short_chars)
                                                                : std::string_view();
  return k_provisional_base + decode(part).value_or(0);
}

std::string number_label(long long number)
{
  if (!is_provisional(number)) {
    return fmt::format("#{}", number);
  }
  auto value = static_cast<unsigned>(number - k_provisional_base);
  std::string chars(k_short_chars, '0');
  for (std::size_t i = k_short_chars; i-- > 0;) {
    chars[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(k_crockford[value % 32])));
    value /= 32;
  }
  return "@" + chars;
}

std::string number_text(long long number)
{
  return is_provisional(number) ? number_label(number) : std::to_string(number);
}

std::optional<std::string> provisional_id_part(std::string_view text)
{
  if (text.size() != k_short_chars + 1 || text[0] != '@' || !decode(text.substr(1))) {
    return std::nullopt;
  }
  std::string upper;
  for (const char c : text.substr(1)) {
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return upper;
}

std::optional<int> parse_provisional(std::string_view text)
{
  if (text.size() != k_short_chars + 1 || text[0] != '@') {
    return std::nullopt;
  }
  const auto value = decode(text.substr(1));
  return value ? std::optional<int>(k_provisional_base + *value) : std::nullopt;
}

} // namespace ej::core
