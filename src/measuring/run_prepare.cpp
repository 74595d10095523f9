#include "measuring/run_prepare.h"

namespace ej::measuring {

PrepareStep::PrepareStep(std::optional<run::ProcessSpec> spec, run::Host& host) : m_host(host)
{
  if (spec) {
    spec->keep_whole_out = false;
    spec->keep_whole_err = false;
    m_launcher = std::make_unique<run::Launcher>(host.prepare(std::move(*spec)));
  }
}

std::optional<run::ProcessResult> PrepareStep::run()
{
  if (!m_launcher) {
    return std::nullopt;
  }
  auto result = m_launcher->run();
  m_host.settle(result);
  if (result.succeeded()) {
    return std::nullopt;
  }
  return result;
}

} // namespace ej::measuring
