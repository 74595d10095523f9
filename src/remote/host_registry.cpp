#include "remote/host_registry.h"

#include "util/error.h"
#include "util/fs.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ej::remote {

using nlohmann::json;

std::vector<HostEntry> load_hosts(const std::filesystem::path& file)
{
  const auto text = util::read_file(file);
  if (!text) {
    return {};
  }
  std::vector<HostEntry> hosts;
  try {
    const auto document = json::parse(*text);
    for (const auto& item : document.at("hosts")) {
      HostEntry entry;
      entry.name = item.at("name").get<std::string>();
      entry.target = item.at("target").get<std::string>();
      entry.root = item.value("root", "");
      for (const auto& variable : item.value("env", json::array())) {
        entry.env.emplace_back(variable.at("name").get<std::string>(),
                               variable.at("value").get<std::string>());
      }
      hosts.push_back(std::move(entry));
    }
  } catch (const json::exception& error) {
    throw Error("{} is damaged ({}); fix it by hand or remove it and add the hosts again with 'ej host add'",
                file.string(), error.what());
  }
  return hosts;
}

void save_host(const std::filesystem::path& file, const HostEntry& entry)
{
  auto hosts = load_hosts(file);
  std::erase_if(hosts, [&](const HostEntry& h) { return h.name == entry.name; });
  hosts.push_back(entry);
  std::sort(hosts.begin(), hosts.end(),
            [](const HostEntry& a, const HostEntry& b) { return a.name < b.name; });
  json list = json::array();
  for (const auto& host : hosts) {
    json env = json::array();
    for (const auto& [name, value] : host.env) {
      env.push_back({{"name", name}, {"value", value}});
    }
    list.push_back({{"name", host.name}, {"target", host.target}, {"root", host.root}, {"env", env}});
  }
  util::write_file_atomic(file, json{{"hosts", list}}.dump(2) + "\n");
}

std::string ssh_destination(const std::string& target)
{
  if (target.rfind("ssh:", 0) != 0 || target.size() == 4) {
    throw UsageError(
        "'{}' is not a host ej can run on: give ssh:HOST (an ssh destination or alias of your ssh "
        "config) or the name of a host added with 'ej host add'",
        target);
  }
  const auto destination = target.substr(4);
  if (destination.front() == '-') {
    throw UsageError("the ssh destination '{}' starts with '-'", destination); // it would be an option of ssh
  }
  return destination;
}

HostEntry resolve_host(const std::filesystem::path& file, const std::string& on)
{
  if (on.rfind("ssh:", 0) == 0) {
    HostEntry entry;
    entry.name = on;
    entry.target = on;
    ssh_destination(on);
    return entry;
  }
  for (const auto& host : load_hosts(file)) {
    if (host.name == on) {
      return host;
    }
  }
  throw UsageError("no host named '{}': add it with 'ej host add {} ssh:HOST', or give --on ssh:HOST", on,
                   on);
}

} // namespace ej::remote
