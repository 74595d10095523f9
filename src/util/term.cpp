#include "util/term.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ej::util {

namespace {

std::atomic<ColourMode> g_colour_mode{ColourMode::Auto};

} // namespace

bool is_terminal(int fd)
{
  return ::isatty(fd) == 1;
}

std::optional<ColourMode> parse_colour_mode(std::string_view text)
{
  if (text == "auto") {
    return ColourMode::Auto;
  }
  if (text == "always") {
    return ColourMode::Always;
  }
  if (text == "never") {
    return ColourMode::Never;
  }
  return std::nullopt;
}

void set_colour_mode(ColourMode mode)
{
  g_colour_mode = mode;
}

bool is_dumb_terminal()
{
  const char* term = std::getenv("TERM");
  return term != nullptr && std::strcmp(term, "dumb") == 0;
}

bool use_colour(int fd)
{
  switch (g_colour_mode.load()) {
  case ColourMode::Always:
    return true;
  case ColourMode::Never:
    return false;
  case ColourMode::Auto:
    break;
  }
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') {
    return false;
  }
  return !is_dumb_terminal() && is_terminal(fd);
}

} // namespace ej::util
