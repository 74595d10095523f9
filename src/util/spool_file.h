#pragma once

#include "util/unique_fd.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ej::util {

// An anonymous temporary file (in $TMPDIR, else /tmp) that keeps a whole output too large for
// memory: it has no name from the moment it exists, so nothing is left behind however ej ends.
// Appending never throws: a failure (a full disk) is kept in error() and ends the spooling,
// so that measuring goes on and only what reads the whole output learns it is missing.
class SpoolFile {
public:
  SpoolFile();

  // False once a write failed (then and after): error() says why.
  bool append(std::string_view data);

  int fd() const { return m_fd.get(); }
  std::uint64_t size() const { return m_size; }
  bool ok() const { return m_error.empty(); }
  const std::string& error() const { return m_error; }

private:
  UniqueFd m_fd;
  std::uint64_t m_size = 0;
  std::string m_error;
};

} // namespace ej::util
