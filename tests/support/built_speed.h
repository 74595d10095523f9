#pragma once

#include "support/ej_repo.h"

#include <string>

// A benchmark whose speed is what its build step copied out of the commit's speed.txt (so that a run
// measures only what was built): its time_ms is that speed with 5% noise drawn from its process id,
// and it takes that time (a longer one than its repeat would make the run invalid). The build
// fails where builds-ok is missing. ej bisect's tests, here and on hosts.
namespace ej::test {

enum class BuildStep { Works, Fails };

// Registers the benchmark `speed` and commits its script.
void add_built_speed_benchmark(const EjRepo& repo);
// A commit setting speed.txt (and breaking the build when asked); its full id.
std::string commit_speed(const EjRepo& repo, const std::string& speed, const std::string& subject,
                         BuildStep build = BuildStep::Works);

} // namespace ej::test
