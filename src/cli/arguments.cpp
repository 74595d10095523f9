#include "cli/arguments.h"

#include "core/param_range.h"
#include "util/error.h"
#include "util/strings.h"

#include <charconv>

namespace ej::cli {

std::filesystem::path command_line_path(std::string_view text)
{
  return std::filesystem::absolute(std::filesystem::path(text)).lexically_normal();
}

std::uint64_t parse_keep_untracked(const std::string& text)
{
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::uint64_t factor = 0;
  if (unit.empty() || unit == "B") {
    factor = 1;
  } else if (unit == "K" || unit == "KiB" || unit == "k") {
    factor = 1024;
  } else if (unit == "M" || unit == "MiB") {
    factor = 1024 * 1024;
  } else if (unit == "G" || unit == "GiB") {
    factor = 1024 * 1024 * 1024;
  }
  constexpr std::uint64_t k_most = 512ull * 1024 * 1024; // a blob is one SQLite value, at most 1 GB
  if (ec != std::errc() || end == text.data() || factor == 0 || value > k_most / factor) {
    throw UsageError("--keep-untracked-up-to takes a size up to 512M, e.g. 200M, 64K or 1048576; not '{}'",
                     text);
  }
  return value * factor;
}

std::vector<measuring::ParamChoice> param_choices(const std::vector<std::string>& options)
{
  std::vector<measuring::ParamChoice> choices;
  for (const auto& option : options) {
    const auto equals = option.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == option.size()) {
      throw UsageError("--param '{}' must look like AXIS=V1,V2,...", option);
    }
    choices.push_back({option.substr(0, equals), core::expand_param_values(option.substr(equals + 1))});
  }
  return choices;
}

CLI::Option* add_json_flag(CLI::App* command, bool& json)
{
  return command->add_flag("--json", json, "Print JSON");
}

CLI::Option* add_attempt_id(CLI::App* command, std::string& id)
{
  return command->add_option("id", id, "Attempt number")->required();
}

CLI::Option* add_plan_slug(CLI::App* command, std::string& slug)
{
  return command->add_option("slug", slug, "The plan (default: the current plan, or the only one)");
}

} // namespace ej::cli
