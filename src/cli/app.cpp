#include "cli/app.h"

#include "cli/command_tree.h"
#include "cli/commands.h"
#include "cli/examples.h"
#include "cli/help.h"
#include "cli/pager.h"
#include "cli/version.h"
#include "util/term.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

namespace ej::cli {

namespace {

// CLI11 lets a repeatable option swallow several words ("--tag a b") and eat a following "--".
// ej's options take one value per occurrence, so that "--metric X -- ./bench --size 4" leaves the
// benchmark's own arguments alone.
void one_value_per_option(CLI::App& app)
{
  for (auto* option : app.get_options()) {
    if (!option->get_positional()) {
      option->allow_extra_args(false);
    }
  }
  for (auto* sub : app.get_subcommands({})) {
    one_value_per_option(*sub);
  }
}

} // namespace

const CLI::Validator& finite_number()
{
  static const CLI::Validator validator(
      [](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(input.c_str(), &end);
        if (end != input.c_str() && *end == '\0' && !std::isfinite(value)) {
          return "'" + input + "' is not a finite number";
        }
        return {};
      },
      "FINITE");
  return validator;
}

// Options every command takes (ej --no-pager log, ej log --no-pager), as git's are.
void add_terminal_options(CLI::App& app)
{
  app.fallthrough(); // subcommands created after this pass options they do not know up to here
  app.add_option_function<std::string>(
         "--color", [](const std::string& when) { util::set_colour_mode(*util::parse_colour_mode(when)); },
         "Colours: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN")
      ->default_str("auto");
  app.add_flag_callback(
      "--no-pager", [] { disable_pager(); }, "Do not send long output (log, show, why) through the pager");
}

namespace {

// The commands each register function adds, by the words that name them. Every command is built
// at start-up otherwise, and building CLI11's whole tree (some 60 commands, 400 options) costs
// more than most commands' own work: `ej log -n 50` spent two fifths of its instructions on it.
struct CommandGroup {
  std::string_view words; // the top-level commands it adds, separated by spaces
  void (*add)(CLI::App&);
  bool reads_whole_tree; // help and completion describe every command
};

constexpr CommandGroup k_command_groups[] = {
    {"init", register_init, false},
    {"plan report", register_plan, false},
    {"try status note attempt", register_attempt_commands, false},
    {"log show search", register_read_commands, false},
    {"why", register_why, false},
    {"bench", register_bench, false},
    {"run", register_run, false},
    {"calibrate", register_calibrate, false},
    {"host", register_host, false},
    {"runs", register_runs, false},
    {"wait cancel", register_live_runs, false},
    {"env", register_env, false},
    {"compare judge", register_compare, false},
    {"record", register_record, false},
    {"sync export import", register_sharing, false},
    {"checkout", register_checkout, false},
    {"rerun", register_rerun, false},
    {"history regressions ack", register_history, false},
    {"ci", register_ci, false},
    {"bisect", register_bisect, false},
    {"mcp", register_mcp, false},
    {"fsck reindex purge", register_maintenance, false},
    {"help completion", register_help, true},
};

bool names(std::string_view words, std::string_view word)
{
  while (!words.empty()) {
    const auto space = words.find(' ');
    if (words.substr(0, space) == word) {
      return true;
    }
    words = space == std::string_view::npos ? std::string_view{} : words.substr(space + 1);
  }
  return false;
}

void add_root(CLI::App& app)
{
  app.require_subcommand(1);
  app.set_version_flag(
      "-V,--version", [] { return version_text(); }, "Print the version and the commit");
  app.footer("Exit codes: 0 ok, 1 error, 2 usage. 'ej help COMMAND' for a command's options.");
  add_terminal_options(app);
}

// What every command gets once its options exist: examples, defaults in the help, one value per
// option.
void finish(CLI::App& app, TreeExtent extent)
{
  add_command_examples(app, extent);
  show_defaults(app);
  one_value_per_option(app);
}

} // namespace

void register_commands(CLI::App& app)
{
  add_root(app);
  for (const auto& group : k_command_groups) {
    group.add(app);
  }
  finish(app, TreeExtent::whole);
}

std::vector<std::string_view> command_group_words()
{
  std::vector<std::string_view> out;
  for (const auto& group : k_command_groups) {
    out.push_back(group.words);
  }
  return out;
}

CommandWord command_word(int argc, const char* const* argv)
{
  CommandWord found;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--color") {
      ++i; // its value
    } else if (argument == "-h" || argument == "--help") {
      found.asks_help = true;
    } else if (argument == "-V" || argument == "--version") {
      found.asks_version = true;
    } else if (argument == "--" || argument.empty() || argument.front() != '-') {
      found.word = argument;
      return found;
    }
  }
  return found;
}

void register_commands_for(CLI::App& app, int argc, const char* const* argv)
{
  const auto typed = command_word(argc, argv);
  const CommandGroup* named = nullptr;
  for (const auto& group : k_command_groups) {
    if (typed.word && names(group.words, *typed.word)) {
      named = &group;
    }
  }
  // `ej --version` needs no command; `ej --help` lists them all, and a word ej does not know
  // gets suggestions from every name.
  if (!typed.word && typed.asks_version && !typed.asks_help) {
    add_root(app);
    return;
  }
  if (named == nullptr || named->reads_whole_tree || typed.asks_help) {
    register_commands(app);
    return;
  }
  add_root(app);
  named->add(app);
  finish(app, TreeExtent::partial);
}

} // namespace ej::cli
