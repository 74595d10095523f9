#include "util/hash.h"

#include <nettle/sha2.h>

#include <array>

namespace ej::util {

std::string sha256_hex(std::string_view data)
{
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&context, digest.size(), digest.data());
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(digest.size() * 2);
  for (const auto byte : digest) {
    out += k_hex[byte >> 4];
    out += k_hex[byte & 0x0F];
  }
  return out;
}

} // namespace ej::util
