#include "core/slug.h"

#include "util/error.h"

namespace ej::core {

void validate_slug(std::string_view slug, std::string_view what)
{
  const auto fail = [&](std::string_view why) {
    throw UsageError("invalid {} '{}': {}; use lowercase letters, digits and dashes, e.g. eagle-fast-verify",
                     what, slug, why);
  };
  if (slug.empty()) {
    fail("it is empty");
  }
  if (slug.size() > 64) {
    fail("it is longer than 64 characters");
  }
  if (slug.front() == '-' || slug.back() == '-') {
    fail("it starts or ends with a dash");
  }
  for (std::size_t i = 0; i < slug.size(); ++i) {
    const char c = slug[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) {
      fail("it contains a character other than a-z, 0-9 and -");
    }
    if (c == '-' && i > 0 && slug[i - 1] == '-') {
      fail("it contains two dashes in a row");
    }
  }
}

} // namespace ej::core
