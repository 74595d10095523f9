#include "util/hash.h"

#include "util/unique_fd.h"

#include <nettle/sha2.h>

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <vector>

namespace ej::util {

namespace {

std::string hex_digest(sha256_ctx& context)
{
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

} // namespace

std::string sha256_hex(std::string_view data)
{
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
  return hex_digest(context);
}

std::optional<std::string> sha256_file(const std::filesystem::path& path)
{
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd) {
    return std::nullopt;
  }
  sha256_ctx context;
  sha256_init(&context);
  std::vector<std::uint8_t> buffer(1 << 20);
  while (true) {
    const auto got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return std::nullopt;
    }
    if (got == 0) {
      return hex_digest(context);
    }
    sha256_update(&context, static_cast<std::size_t>(got), buffer.data());
  }
}

} // namespace ej::util
