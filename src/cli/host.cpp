#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "core/slug.h"
#include "measuring/workspace.h"
#include "remote/host_check.h"
#include "remote/host_registry.h"
#include "util/error.h"

#include <fmt/format.h>

// The hosts benchmarks can run on: host add, list, check.
namespace ej::cli {

namespace {

struct HostAddOptions {
  std::string name;
  std::string target;
  std::string root;
  std::vector<std::string> env;
};

std::filesystem::path hosts_file()
{
  const auto workspace = measuring::locate_workspace();
  open_journal(workspace); // hosts belong to a journal: before ej init, say so
  return workspace.ej_dir / "hosts.json";
}

void run_host_add(const HostAddOptions& options)
{
  core::validate_slug(options.name, "host name");
  if (options.name == "local") {
    throw UsageError("'local' means this machine; name the host differently");
  }
  remote::HostEntry entry;
  entry.name = options.name;
  entry.target = options.target;
  remote::ssh_destination(entry.target); // only ssh hosts can be added so far
  entry.root = checked_text(options.root, "--root");
  for (const auto& item : options.env) {
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw UsageError("--env '{}' must look like NAME=VALUE", item);
    }
    entry.env.emplace_back(item.substr(0, equals), item.substr(equals + 1));
  }
  remote::save_host(hosts_file(), entry);
  fmt::print("host {} is {}{}\n", entry.name, entry.target,
             entry.root.empty() ? "" : ", work under " + entry.root);
}

void run_host_list(bool json)
{
  const auto hosts = remote::load_hosts(hosts_file());
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& host : hosts) {
      nlohmann::json env = nlohmann::json::object();
      for (const auto& [name, value] : host.env) {
        env[name] = value;
      }
      out.push_back({{"name", host.name}, {"target", host.target}, {"root", host.root}, {"env", env}});
    }
    print_json(out);
    return;
  }
  if (hosts.empty()) {
    fmt::print("no hosts yet; add one with: ej host add NAME ssh:HOST\n");
  }
  for (const auto& host : hosts) {
    fmt::print("{:<20} {}{}\n", paint(host.name, Colour::Bold), host.target,
               host.root.empty() ? "" : "  root " + host.root);
  }
}

void run_host_check(const std::string& name)
{
  const auto entry = remote::resolve_host(hosts_file(), name);
  bool all_ok = true;
  for (const auto& finding : remote::check_host(entry)) {
    // GPUs and a toolkit are findings, not requirements: a CPU benchmark needs neither.
    const bool required = finding.what != "gpus" && finding.what != "toolkit";
    all_ok = all_ok && (finding.ok || !required);
    fmt::print("{:<10} {} {}\n", finding.what,
               finding.ok ? paint("ok", Colour::Green)
                          : paint(required ? "FAIL" : "none", required ? Colour::Red : Colour::Yellow),
               finding.detail);
  }
  if (!all_ok) {
    throw Error("host {} cannot run benchmarks yet: see above", entry.name);
  }
}

} // namespace

void register_host(CLI::App& app)
{
  auto* host = app.add_subcommand("host", "The machines benchmarks run on (ej run --on)");
  host->require_subcommand(1);

  auto add_options = std::make_shared<HostAddOptions>();
  auto* add = host->add_subcommand(
      "add", "Add (or change) a host: ej host add NAME ssh:HOST [--root DIR] [--env K=V]");
  add->add_option("name", add_options->name, "The name runs use (--on NAME)")->required();
  add->add_option("target", add_options->target,
                  "ssh:DESTINATION (an alias of your ssh config, or user@host)")
      ->required();
  add->add_option("--root", add_options->root,
                  "Where work directories go on the host (default ~/.cache/ej/work)");
  add->add_option("--env", add_options->env, "NAME=VALUE set for every process there (repeatable)");
  add->callback([add_options] { run_host_add(*add_options); });

  auto list_json = std::make_shared<bool>(false);
  auto* list = host->add_subcommand("list", "List the hosts");
  add_json_flag(list, *list_json);
  list->callback([list_json] { run_host_list(*list_json); });

  auto check_name = std::make_shared<std::string>();
  auto* check = host->add_subcommand(
      "check", "Check that a host can run benchmarks: reachable, shell, tar, GPUs, toolkit, disk");
  check->add_option("name", *check_name, "Host name, or ssh:HOST")->required();
  check->callback([check_name] { run_host_check(*check_name); });
}

} // namespace ej::cli
