#include "util/ulid.h"

#include <array>
#include <random>

namespace ej::util {

namespace {

constexpr std::string_view k_alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

} // namespace

std::string make_ulid(std::int64_t ms)
{
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::string out(26, '0');
  auto time = static_cast<std::uint64_t>(ms);
  for (int i = 9; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = k_alphabet[time & 31];
    time >>= 5;
  }
  for (std::size_t i = 10; i < 26; ++i) {
    out[i] = k_alphabet[generator() & 31];
  }
  return out;
}

bool is_ulid(std::string_view text)
{
  return text.size() == 26 && text.find_first_not_of(k_alphabet) == std::string_view::npos && text[0] <= '7';
}

} // namespace ej::util
