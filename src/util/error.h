#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace ej {

// The one error type of ej. Its message tells the user what happened and what to do;
// main() catches it once and prints "ej: error: <message>".
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}

  template <typename... Args>
  explicit Error(fmt::format_string<Args...> format, Args&&... args)
    : std::runtime_error(fmt::format(format, std::forward<Args>(args)...))
  {
  }
};

// A mistake in how ej was called (bad option value, unknown status...): exit code 2.
class UsageError : public Error {
public:
  using Error::Error;
};

} // namespace ej

namespace ej {

// Ends a command with an exit code after it has printed its own report (ej fsck, --check): no
// further message. Caught in main().
struct ExitCode {
  int code;
};

} // namespace ej
