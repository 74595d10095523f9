#include "util/base64.h"

#include <nettle/base64.h>

#include <cstdint>

namespace ej::util {

std::string base64_encode(std::string_view bytes)
{
  std::string out(BASE64_ENCODE_RAW_LENGTH(bytes.size()), '\0');
  base64_encode_raw(out.data(), bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text)
{
  base64_decode_ctx context;
  base64_decode_init(&context);
  std::string out(BASE64_DECODE_LENGTH(text.size()), '\0');
  std::size_t length = out.size();
  if (base64_decode_update(&context, &length, reinterpret_cast<std::uint8_t*>(out.data()), text.size(),
                           text.data()) == 0 ||
      base64_decode_final(&context) == 0) {
    return std::nullopt;
  }
  out.resize(length);
  return out;
}

} // namespace ej::util
