#pragma once

#include <string>

namespace ej::util {

// The GNU build ID of the running executable, in hex ("aa2d6f9f..."): the linker's hash of the
// code and data, different for every binary built differently (NT_GNU_BUILD_ID, which GCC on
// Debian asks the linker for by default). Empty when the binary has none. Read from the program
// headers mapped in memory: no file is opened.
std::string executable_build_id();

} // namespace ej::util
