#include "run/build_step.h"

#include "util/hash.h"

#include <fmt/format.h>

namespace ej::run {

std::string_view build_state_name(BuildState state)
{
  switch (state) {
  case BuildState::Built:
    return "built";
  case BuildState::Reused:
    return "reused";
  case BuildState::Failed:
    return "failed";
  }
  return "unknown";
}

std::string build_key(const BuildRequest& request)
{
  std::string text = fmt::format("ej-build 1\nstate {}\ncommand {}\ncwd {}\n", request.state, request.command,
                                 request.cwd.string());
  for (const auto& [name, value] : request.env) {
    text += fmt::format("env {}={}\n", name, value);
  }
  return util::sha256_hex(text);
}

BuildOutcome run_build(Host& host, const BuildRequest& request)
{
  BuildOutcome outcome;
  const auto key = build_key(request);
  // A marker that cannot be read is a build to make, not a failure: the build decides.
  std::optional<std::string> marker;
  try {
    marker = host.read_text(request.marker);
  } catch (const std::exception&) {
  }
  if (marker && *marker == key + "\n") {
    outcome.state = BuildState::Reused;
    return outcome;
  }
  ProcessSpec spec;
  spec.shell = request.command;
  spec.cwd = request.cwd;
  spec.env = request.env;
  spec.echo = request.echo;
  Launcher launcher(host.prepare(std::move(spec)));
  auto result = launcher.run();
  host.settle(result);
  outcome.wall_s = result.wall_s;
  outcome.log = result.out.text();
  if (const auto err = result.err.text(); !err.empty()) {
    outcome.log += (outcome.log.empty() || outcome.log.back() == '\n' ? "" : "\n") + err;
  }
  if (!result.succeeded()) {
    outcome.state = BuildState::Failed;
    outcome.failure = describe(result);
    return outcome;
  }
  host.write_text(request.marker, key + "\n");
  return outcome;
}

} // namespace ej::run
