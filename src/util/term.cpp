#include "util/term.h"

#include <cstdlib>
#include <unistd.h>

namespace ej::util {

bool is_terminal(int fd)
{
  return ::isatty(fd) == 1;
}

bool use_colour(int fd)
{
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') {
    return false;
  }
  return is_terminal(fd);
}

} // namespace ej::util
