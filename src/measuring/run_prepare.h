#pragma once

#include "run/host.h"
#include "run/process.h"

#include <memory>
#include <optional>

// `ej run --prepare CMD`: a shell command before each repeat (warmups included), as hyperfine's
// --prepare: in the benchmark's directory and environment, on the same host, never timed.
namespace ej::measuring {

class PrepareStep {
public:
  // nullopt: no --prepare, run() does nothing.
  PrepareStep(std::optional<run::ProcessSpec> spec, run::Host& host);

  // Runs the command once; its result when it failed.
  std::optional<run::ProcessResult> run();

private:
  std::unique_ptr<run::Launcher> m_launcher;
  run::Host& m_host;
};

} // namespace ej::measuring
