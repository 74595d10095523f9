#include "cli/output.h"

#include "util/term.h"

#include <cstdio>
#include <unistd.h>

namespace ej::cli {

bool stdout_colour()
{
  static const bool enabled = util::use_colour(STDOUT_FILENO);
  return enabled;
}

std::string paint(std::string_view text, Colour colour)
{
  if (!stdout_colour()) {
    return std::string(text);
  }
  const char* code = "";
  switch (colour) {
  case Colour::Bold:
    code = "1";
    break;
  case Colour::Dim:
    code = "2";
    break;
  case Colour::Red:
    code = "31";
    break;
  case Colour::Green:
    code = "32";
    break;
  case Colour::Yellow:
    code = "33";
    break;
  case Colour::Blue:
    code = "34";
    break;
  case Colour::Magenta:
    code = "35";
    break;
  case Colour::Cyan:
    code = "36";
    break;
  }
  return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}

std::string paint_status(core::Status status)
{
  const auto name = core::to_string(status);
  switch (status) {
  case core::Status::Adopted:
    return paint(name, Colour::Green);
  case core::Status::Rejected:
    return paint(name, Colour::Red);
  case core::Status::Blocked:
    return paint(name, Colour::Magenta);
  case core::Status::Inconclusive:
    return paint(name, Colour::Yellow);
  case core::Status::Superseded:
    return paint(name, Colour::Dim);
  case core::Status::Running:
    return paint(name, Colour::Cyan);
  case core::Status::Proposed:
    return paint(name, Colour::Blue);
  }
  return std::string(name);
}

void print_json(const nlohmann::json& json)
{
  const auto text = with_schema(json).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

std::string indent_continuation(std::string_view text, std::string_view indent)
{
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') {
      out += indent;
    }
  }
  return out;
}

} // namespace ej::cli
