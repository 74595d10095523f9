#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "core/numbering.h"
#include "measuring/workspace.h"
#include "run/env_diff.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

// Environment snapshots and probes: env show, env diff, env probe add|list|remove.
namespace ej::cli {

namespace {

nlohmann::json run_environment(store::Journal& journal, const std::string& id)
{
  const int number = parse_run_number(id);
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  if (run->env_blob.empty()) {
    throw Error("run {} has no environment snapshot ({}); ej records one for every run it measures itself",
                core::number_label(number),
                run->status == core::RunStatus::Imported ? "it was imported" : "none was captured");
  }
  const auto text = journal.blob(run->env_blob);
  if (!text) {
    throw Error("the environment snapshot {} of run {} is missing from the journal; run 'ej fsck'",
                run->env_blob.substr(0, 12), core::number_label(number));
  }
  return {{"fingerprint", nlohmann::json::parse(*text)}, {"readings", run->env_readings}};
}

void print_section(const std::string& prefix, const nlohmann::json& value)
{
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      print_section(prefix.empty() ? key : prefix + "." + key, child);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      print_section(fmt::format("{}[{}]", prefix, i), value[i]);
    }
  } else if (value.is_string()) {
    const auto text = util::visible_controls(value.get<std::string>()); // a probe's output, shown
    if (text.find('\n') != std::string::npos) {
      fmt::print("{}:\n  {}\n", prefix, indent_continuation(util::trim(text), "  "));
    } else {
      fmt::print("{}: {}\n", prefix, text);
    }
  } else {
    fmt::print("{}: {}\n", prefix, value.dump());
  }
}

void run_env_show(const std::string& id, bool json)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto snapshot = run_environment(journal, id);
  if (json) {
    print_json(snapshot);
    return;
  }
  print_section("", snapshot["fingerprint"]);
  print_section("readings", snapshot["readings"]);
}

void run_env_diff(const std::string& a, const std::string& b, bool json)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto changes = run::diff_environments(run_environment(journal, a)["fingerprint"],
                                              run_environment(journal, b)["fingerprint"]);
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& change : changes) {
      out.push_back({{"what", change.what},
                     {"before", change.before ? nlohmann::json(*change.before) : nlohmann::json()},
                     {"after", change.after ? nlohmann::json(*change.after) : nlohmann::json()}});
    }
    print_json(out);
    return;
  }
  if (changes.empty()) {
    fmt::print("runs {} and {} ran in the same environment\n", a, b);
    return;
  }
  for (const auto& line : run::format_changes(changes)) {
    fmt::print("{}\n", line);
  }
}

struct ProbeOptions {
  std::string name;
  std::vector<std::string> argv;
  std::string shell;
  double timeout = 20;
};

void run_probe_add(const ProbeOptions& options)
{
  if (options.name.empty() || options.name.find_first_of(" \t\n/") != std::string::npos) {
    throw UsageError("a probe name is one word, e.g. pip-freeze");
  }
  if (options.argv.empty() == options.shell.empty()) {
    throw UsageError(
        "give the probe's command after --, e.g. ej env probe add pip-freeze -- pip freeze, or --shell");
  }
  if (options.timeout <= 0) {
    throw UsageError("--timeout must be positive");
  }
  auto journal = open_journal(measuring::locate_workspace());
  journal.write([&](store::Writer& writer) {
    writer.append(store::events::ProbeAdded{
        options.name, {{"argv", options.argv}, {"shell", options.shell}, {"timeout_s", options.timeout}}});
  });
  fmt::print("probe {} added: its output is part of every run's environment from now on\n", options.name);
}

void run_probe_list(bool json)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto probes = store::list_probes(journal.db());
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& [name, definition] : probes) {
      out.push_back({{"name", name}, {"definition", definition}});
    }
    print_json(out);
    return;
  }
  if (probes.empty()) {
    fmt::print("no probes; add one with: ej env probe add pip-freeze -- pip freeze\n");
  }
  for (const auto& [name, definition] : probes) {
    const auto shell = definition.value("shell", "");
    fmt::print("{:<20} {}\n", name,
               shell.empty() ? util::join(definition.value("argv", std::vector<std::string>{}), " ")
                             : "sh -c " + shell);
  }
}

void run_probe_remove(const std::string& name)
{
  auto journal = open_journal(measuring::locate_workspace());
  journal.write([&](store::Writer& writer) {
    bool found = false;
    for (const auto& probe : store::list_probes(journal.db())) {
      found = found || probe.first == name;
    }
    if (!found) {
      throw Error("no probe named '{}'; see 'ej env probe list'", name);
    }
    writer.append(store::events::ProbeRemoved{name});
  });
  fmt::print("probe {} removed\n", name);
}

} // namespace

void register_env(CLI::App& app)
{
  auto* env = app.add_subcommand("env", "Environment snapshots of runs, and probe commands");
  env->require_subcommand(1);

  auto show_id = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = env->add_subcommand("show", "Show the environment a run ran in");
  show->add_option("run", *show_id, "Run number")->required();
  add_json_flag(show, *show_json);
  show->callback([show_id, show_json] { run_env_show(*show_id, *show_json); });

  auto diff_ids = std::make_shared<std::pair<std::string, std::string>>();
  auto diff_json = std::make_shared<bool>(false);
  auto* diff = env->add_subcommand("diff", "What changed between the environments of two runs");
  diff->add_option("run_a", diff_ids->first, "First run")->required();
  diff->add_option("run_b", diff_ids->second, "Second run")->required();
  add_json_flag(diff, *diff_json);
  diff->callback([diff_ids, diff_json] { run_env_diff(diff_ids->first, diff_ids->second, *diff_json); });

  auto* probe = env->add_subcommand("probe", "Commands whose output is part of every environment snapshot");
  probe->require_subcommand(1);
  auto add_options = std::make_shared<ProbeOptions>();
  auto* add = probe->add_subcommand("add", "Add a probe: ej env probe add NAME -- CMD ARG...");
  add->add_option("name", add_options->name, "Probe name, e.g. pip-freeze")->required();
  add->add_option("command", add_options->argv, "The command, after --");
  add->add_option("--shell", add_options->shell, "Run this string with /bin/sh -c instead");
  add->add_option("--timeout", add_options->timeout, "Seconds before the probe is stopped (default 20)")
      ->check(finite_number());
  add->callback([add_options] { run_probe_add(*add_options); });
  auto list_json = std::make_shared<bool>(false);
  auto* list = probe->add_subcommand("list", "List the probes");
  add_json_flag(list, *list_json);
  list->callback([list_json] { run_probe_list(*list_json); });
  auto remove_name = std::make_shared<std::string>();
  auto* remove = probe->add_subcommand("remove", "Remove a probe");
  remove->add_option("name", *remove_name, "Probe name")->required();
  remove->callback([remove_name] { run_probe_remove(*remove_name); });
}

} // namespace ej::cli
