#include "run/env_diff.h"

#include "util/strings.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace ej::run {

using nlohmann::json;

namespace {

const json& unwrap(const json& snapshot)
{
  if (snapshot.is_object() && snapshot.contains("fingerprint")) {
    return snapshot["fingerprint"];
  }
  return snapshot;
}

const json& member(const json& object, const std::string& key)
{
  static const json k_null;
  if (object.is_object()) {
    if (const auto it = object.find(key); it != object.end()) {
      return *it;
    }
  }
  return k_null;
}

// Values as people read them: strings bare, null as "unknown", other JSON compact.
// The keys of either object, sorted.
std::set<std::string> keys_of(const json& a, const json& b)
{
  std::set<std::string> keys;
  for (const json* object : {&a, &b}) {
    if (object->is_object()) {
      for (const auto& item : object->items()) {
        keys.insert(item.key());
      }
    }
  }
  return keys;
}

std::string text_of(const json& value)
{
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_null()) {
    return "unknown";
  }
  return value.dump();
}

class Differ {
public:
  void value(const std::string& what, const json& a, const json& b)
  {
    if (a != b) {
      m_changes.push_back({what, text_of(a), text_of(b)});
    }
  }

  // Each key of two objects, in sorted order; labels maps known keys to readable names.
  void fields(const std::string& prefix, const json& a, const json& b,
              const std::map<std::string, std::string>& labels)
  {
    for (const std::string& key : keys_of(a, b)) {
      const auto label = labels.find(key);
      const std::string name = label != labels.end() ? label->second : key;
      value(prefix.empty() ? name : prefix + " " + name, member(a, key), member(b, key));
    }
  }

  // Entries present on one side only are added/removed; on both, compared.
  void entries(const std::string& prefix, const json& a, const json& b)
  {
    for (const std::string& key : keys_of(a, b)) {
      const json& before = member(a, key);
      const json& after = member(b, key);
      const bool in_a = a.is_object() && a.contains(key);
      const bool in_b = b.is_object() && b.contains(key);
      if (in_a && !in_b) {
        m_changes.push_back({prefix + " " + key, text_of(before), std::nullopt});
      } else if (!in_a && in_b) {
        m_changes.push_back({prefix + " " + key, std::nullopt, text_of(after)});
      } else {
        value(prefix + " " + key, before, after);
      }
    }
  }

  void gpus(const json& a, const json& b)
  {
    std::map<int, const json*> by_index_a = index_devices(member(a, "devices"));
    std::map<int, const json*> by_index_b = index_devices(member(b, "devices"));
    std::set<int> indexes;
    for (const auto& [index, device] : by_index_a) {
      indexes.insert(index);
    }
    for (const auto& [index, device] : by_index_b) {
      indexes.insert(index);
    }
    for (const int index : indexes) {
      const std::string what = fmt::format("GPU {}", index);
      const auto in_a = by_index_a.find(index);
      const auto in_b = by_index_b.find(index);
      if (in_b == by_index_b.end()) {
        m_changes.push_back({what, text_of(member(*in_a->second, "name")), std::nullopt});
      } else if (in_a == by_index_a.end()) {
        m_changes.push_back({what, std::nullopt, text_of(member(*in_b->second, "name"))});
      } else {
        fields(what, *in_a->second, *in_b->second, {{"index", "index"}});
      }
    }
  }

  void probe_output(const std::string& what, const std::string& a, const std::string& b)
  {
    const std::vector<std::string> lines_a = util::lines(a);
    const std::vector<std::string> lines_b = util::lines(b);
    const std::set<std::string> set_a(lines_a.begin(), lines_a.end());
    const std::set<std::string> set_b(lines_b.begin(), lines_b.end());
    // Removed and added lines, then pair those that share a package name.
    std::map<std::string, std::string> removed_by_key;
    std::vector<std::string> removed;
    for (const std::string& line : lines_a) {
      if (!set_b.contains(line) && !util::trim(line).empty()) {
        removed.push_back(line);
        if (const auto key = package_key(line); key && !removed_by_key.contains(*key)) {
          removed_by_key[*key] = line;
        }
      }
    }
    std::set<std::string> paired;
    std::vector<EnvChange> added;
    for (const std::string& line : lines_b) {
      if (set_a.contains(line) || util::trim(line).empty()) {
        continue;
      }
      const auto key = package_key(line);
      if (key && removed_by_key.contains(*key) && !paired.contains(*key)) {
        paired.insert(*key);
        m_changes.push_back({what, removed_by_key[*key], line});
      } else {
        added.push_back({what, std::nullopt, line});
      }
    }
    for (const std::string& line : removed) {
      const auto key = package_key(line);
      if (!(key && paired.contains(*key) && removed_by_key[*key] == line)) {
        m_changes.push_back({what, line, std::nullopt});
      }
    }
    m_changes.insert(m_changes.end(), added.begin(), added.end());
  }

  void probes(const json& a, const json& b)
  {
    std::set<std::string> names;
    for (const json* object : {&a, &b}) {
      if (object->is_object()) {
        for (const auto& item : object->items()) {
          names.insert(item.key());
        }
      }
    }
    for (const std::string& name : names) {
      const std::string what = "probe " + name;
      const bool in_a = a.is_object() && a.contains(name);
      const bool in_b = b.is_object() && b.contains(name);
      if (!in_a || !in_b) {
        m_changes.push_back({what, in_a ? std::optional<std::string>("present") : std::nullopt,
                             in_b ? std::optional<std::string>("present") : std::nullopt});
        continue;
      }
      const json& pa = a[name];
      const json& pb = b[name];
      value(what + " command", member(pa, "command"), member(pb, "command"));
      value(what + " exit code", member(pa, "exit_code"), member(pb, "exit_code"));
      value(what + " error", member(pa, "error"), member(pb, "error"));
      const json& out_a = member(pa, "output");
      const json& out_b = member(pb, "output");
      probe_output(what, out_a.is_string() ? out_a.get<std::string>() : "",
                   out_b.is_string() ? out_b.get<std::string>() : "");
    }
  }

  std::vector<EnvChange> take() { return std::move(m_changes); }

private:
  static std::map<int, const json*> index_devices(const json& devices)
  {
    std::map<int, const json*> result;
    if (devices.is_array()) {
      for (std::size_t i = 0; i < devices.size(); ++i) {
        const json& index = member(devices[i], "index");
        result[index.is_number_integer() ? index.get<int>() : static_cast<int>(i)] = &devices[i];
      }
    }
    return result;
  }

  // "torch==2.9.0" -> "torch"; "pkg @ file:///..." -> "pkg"; other lines have no key.
  static std::optional<std::string> package_key(const std::string& line)
  {
    for (const std::string_view separator : {"==", " @ "}) {
      if (const auto at = line.find(separator); at != std::string::npos && at > 0) {
        return util::to_lower(util::trim(std::string_view(line).substr(0, at)));
      }
    }
    return std::nullopt;
  }

  std::vector<EnvChange> m_changes;
};

json gpu_count(const json& gpu)
{
  const json& devices = member(gpu, "devices");
  return devices.is_array() ? json(devices.size()) : json(0);
}

} // namespace

std::vector<EnvChange> diff_environments(const json& a_in, const json& b_in)
{
  const json& a = unwrap(a_in);
  const json& b = unwrap(b_in);
  Differ differ;
  differ.fields("", member(a, "host"), member(b, "host"),
                {{"hostname", "host"},
                 {"os", "OS"},
                 {"kernel", "kernel"},
                 {"arch", "architecture"},
                 {"cpu_model", "CPU"},
                 {"cpu_count", "CPU count"},
                 {"memory_kb", "memory (kB)"}});
  const json& gpu_a = member(a, "gpu");
  const json& gpu_b = member(b, "gpu");
  differ.value("NVIDIA driver", member(gpu_a, "driver_version"), member(gpu_b, "driver_version"));
  differ.value("CUDA driver", member(gpu_a, "cuda_driver_version"), member(gpu_b, "cuda_driver_version"));
  differ.value("GPU information source", member(gpu_a, "source"), member(gpu_b, "source"));
  differ.value("GPU count", gpu_count(gpu_a), gpu_count(gpu_b));
  differ.value("GPU clocks policy", member(gpu_a, "clocks_policy"), member(gpu_b, "clocks_policy"));
  differ.gpus(gpu_a, gpu_b);
  differ.fields("", member(a, "toolkit"), member(b, "toolkit"),
                {{"nvcc", "nvcc"}, {"nvcc_path", "nvcc path"}});
  differ.entries("variable", member(a, "variables"), member(b, "variables"));
  differ.probes(member(a, "probes"), member(b, "probes"));
  return differ.take();
}

std::string format_change(const EnvChange& change)
{
  if (!change.before) {
    return fmt::format("{}: added {}", change.what, change.after.value_or(""));
  }
  if (!change.after) {
    return fmt::format("{}: removed {}", change.what, *change.before);
  }
  return fmt::format("{}: {} -> {}", change.what, *change.before, *change.after);
}

std::vector<std::string> format_changes(const std::vector<EnvChange>& changes)
{
  std::vector<std::string> result;
  result.reserve(changes.size());
  for (const EnvChange& change : changes) {
    result.push_back(format_change(change));
  }
  return result;
}

} // namespace ej::run
