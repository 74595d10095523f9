#include "store/events.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ej::store::events {

namespace {

using nlohmann::json;

// Readers never throw for a missing or mistyped field: a payload from another version of ej
// reads as far as it goes, the rest takes its default.
std::string text(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> optional_text(const json& object, const char* key)
{
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::int64_t integer(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

double real(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

bool boolean(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

json member(const json& object, const char* key, json fallback)
{
  const auto it = object.find(key);
  return it != object.end() && it->type() == fallback.type() ? *it : std::move(fallback);
}

std::vector<std::string> strings(const json& object, const char* key)
{
  std::vector<std::string> out;
  const auto it = object.find(key);
  if (it != object.end() && it->is_array()) {
    for (const auto& item : *it) {
      if (item.is_string()) {
        out.push_back(item.get<std::string>());
      }
    }
  }
  return out;
}

const json& payload_of(const Event& event)
{
  static const json empty = json::object();
  return event.payload.is_object() ? event.payload : empty;
}

Ref ref_field(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it == object.end() ? Ref{} : Ref::from_json(*it);
}

json links_json(const std::vector<AttemptLink>& links)
{
  json list = json::array();
  for (const auto& link : links) {
    list.push_back({{"kind", link.kind}, {"to", link.to.to_json()}});
  }
  return list;
}

std::vector<AttemptLink> links_from(const json& object, const char* key)
{
  std::vector<AttemptLink> out;
  for (const auto& link : member(object, key, json::array())) {
    if (link.is_object()) {
      out.push_back({text(link, "kind"), ref_field(link, "to")});
    }
  }
  return out;
}

json samples_json(const std::vector<Sample>& samples)
{
  json list = json::array();
  for (const auto& sample : samples) {
    // Member by member: an initializer list copies every value twice, per sample of every repeat.
    json& item = list.emplace_back(json::object());
    item.emplace("metric", sample.metric);
    item.emplace("key", sample.key);
    item.emplace("value", sample.value);
    item.emplace("unit", sample.unit);
    if (sample.kind != core::SampleKind::Sample) {
      item.emplace("kind", core::to_string(sample.kind));
    }
  }
  return list;
}

std::vector<Sample> samples_from(const json& object)
{
  std::vector<Sample> out;
  const auto it = object.find("samples");
  if (it == object.end() || !it->is_array()) {
    return out;
  }
  out.reserve(it->size());
  for (const auto& item : *it) {
    if (item.is_object()) {
      out.push_back({text(item, "metric"), text(item, "key"), real(item, "value"), text(item, "unit"),
                     read_sample_kind(text(item, "kind"))});
    }
  }
  return out;
}

json range_json(const std::optional<core::Range>& range)
{
  if (!range) {
    return nullptr;
  }
  return {{"min", range->min}, {"median", range->median}, {"max", range->max}};
}

std::optional<core::Range> range_from(const json& object, const char* key)
{
  const auto it = object.find(key);
  if (it == object.end() || !it->is_object()) {
    return std::nullopt;
  }
  return core::Range{real(*it, "min"), real(*it, "median"), real(*it, "max")};
}

std::optional<double> optional_real(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

json optional_json(const std::optional<double>& value)
{
  return value ? json(*value) : json(nullptr);
}

} // namespace

json device_json(const core::DeviceState& device)
{
  json list = json::array();
  for (const auto& gpu : device) {
    json item = {{"gpu", gpu.index},
                 {"uuid", gpu.uuid},
                 {"samples", gpu.samples},
                 {"sm_clock_mhz", range_json(gpu.sm_clock_mhz)},
                 {"memory_clock_mhz", range_json(gpu.memory_clock_mhz)},
                 {"power_w", range_json(gpu.power_w)},
                 {"temperature_max_c", optional_json(gpu.temperature_max_c)},
                 {"utilization_max_pct", optional_json(gpu.utilization_max_pct)},
                 {"reasons", gpu.reasons}};
    if (gpu.lost) {
      item["lost"] = true;
    }
    list.push_back(std::move(item));
  }
  return list;
}

core::RunStatus read_run_status(std::string_view text)
{
  return core::parse_run_status(text).value_or(core::RunStatus::Failed);
}

core::RepeatEnding read_repeat_ending(std::string_view text)
{
  return core::parse_repeat_ending(text).value_or(core::RepeatEnding::Signaled);
}

core::SampleKind read_sample_kind(std::string_view text)
{
  return core::parse_sample_kind(text).value_or(core::SampleKind::Sample);
}

core::DeviceState device_from_json(const json& value)
{
  core::DeviceState out;
  if (!value.is_array()) {
    return out;
  }
  for (const auto& item : value) {
    if (!item.is_object()) {
      continue;
    }
    core::GpuRepeatState gpu;
    gpu.index = static_cast<int>(integer(item, "gpu"));
    gpu.uuid = text(item, "uuid");
    gpu.samples = static_cast<int>(integer(item, "samples"));
    gpu.sm_clock_mhz = range_from(item, "sm_clock_mhz");
    gpu.memory_clock_mhz = range_from(item, "memory_clock_mhz");
    gpu.power_w = range_from(item, "power_w");
    gpu.temperature_max_c = optional_real(item, "temperature_max_c");
    gpu.utilization_max_pct = optional_real(item, "utilization_max_pct");
    gpu.reasons = strings(item, "reasons");
    gpu.lost = boolean(item, "lost");
    out.push_back(std::move(gpu));
  }
  return out;
}

json Ref::to_json() const
{
  if (!id.empty()) {
    return id;
  }
  return number > 0 ? json(number) : json(nullptr);
}

Ref Ref::from_json(const json& value)
{
  if (value.is_string()) {
    return Ref{value.get<std::string>(), 0};
  }
  if (value.is_number_integer() && value.get<std::int64_t>() > 0) {
    return Ref{std::string(), value.get<std::int64_t>()};
  }
  return Ref{};
}

namespace {

std::optional<std::vector<std::string>> optional_strings(const json& object, const char* key)
{
  if (const auto it = object.find(key); it == object.end() || !it->is_array()) {
    return std::nullopt;
  }
  return strings(object, key);
}

} // namespace

json PlanCreated::payload() const
{
  json out = {{"slug", slug}, {"title", title}, {"goal", goal}, {"target", target}, {"doc", doc}};
  // Only when set: a plan of one benchmark and one target writes what ej always wrote.
  if (!targets.empty()) {
    out["targets"] = targets;
  }
  if (!measures.empty()) {
    out["measures"] = measures;
  }
  if (!headline.empty()) {
    out["headline"] = headline;
  }
  return out;
}

PlanCreated PlanCreated::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "slug"), text(p, "title"),      text(p, "goal"),        text(p, "target"),
          text(p, "doc"),  strings(p, "targets"), strings(p, "measures"), text(p, "headline")};
}

json PlanEdited::payload() const
{
  json out = {{"slug", slug}};
  const auto put = [&](const char* key, const std::optional<std::string>& value) {
    if (value) {
      out[key] = *value;
    }
  };
  put("title", title);
  put("goal", goal);
  put("target", target);
  put("doc", doc);
  if (targets) {
    out["targets"] = *targets;
  }
  if (measures) {
    out["measures"] = *measures;
  }
  put("headline", headline);
  return out;
}

PlanEdited PlanEdited::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "slug"),
          optional_text(p, "title"),
          optional_text(p, "goal"),
          optional_text(p, "target"),
          optional_text(p, "doc"),
          optional_strings(p, "targets"),
          optional_strings(p, "measures"),
          optional_text(p, "headline")};
}

json AttemptCreated::payload() const
{
  const auto link_list = links_json(links);
  // "attempt" is the writer's number, as in version 1, so that older readers still place it.
  return {{"attempt", number}, {"plan", plan},   {"title", title},       {"hypothesis", hypothesis},
          {"command", command}, {"tags", tags},   {"links", link_list},   {"git", core::to_json(git)}};
}

AttemptCreated AttemptCreated::read(const Event& event)
{
  const auto& p = payload_of(event);
  AttemptCreated out;
  out.number = integer(p, "attempt");
  out.plan = text(p, "plan");
  out.title = text(p, "title");
  out.hypothesis = text(p, "hypothesis");
  out.command = text(p, "command");
  out.tags = strings(p, "tags");
  out.links = links_from(p, "links");
  out.git = core::git_context_from_json(member(p, "git", json::object()));
  return out;
}

json AttemptStatus::payload() const
{
  return {{"attempt", attempt.to_json()}, {"status", status}, {"reason", reason}, {"git", core::to_json(git)}};
}

AttemptStatus AttemptStatus::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {ref_field(p, "attempt"), text(p, "status"), text(p, "reason"),
          core::git_context_from_json(member(p, "git", json::object()))};
}

json AttemptNote::payload() const
{
  return {{"attempt", attempt.to_json()}, {"text", text}};
}

AttemptNote AttemptNote::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {ref_field(p, "attempt"), events::text(p, "text")};
}

bool AttemptEdited::changes_nothing() const
{
  return !title && !hypothesis && !command && add_tags.empty() && remove_tags.empty();
}

json AttemptEdited::payload() const
{
  json out = {{"attempt", attempt.to_json()}};
  if (title) {
    out["title"] = *title;
  }
  if (hypothesis) {
    out["hypothesis"] = *hypothesis;
  }
  if (command) {
    out["command"] = *command;
  }
  if (!add_tags.empty()) {
    out["add_tags"] = add_tags;
  }
  if (!remove_tags.empty()) {
    out["remove_tags"] = remove_tags;
  }
  return out;
}

AttemptEdited AttemptEdited::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {ref_field(p, "attempt"),  optional_text(p, "title"), optional_text(p, "hypothesis"),
          optional_text(p, "command"), strings(p, "add_tags"),  strings(p, "remove_tags")};
}

json AttemptLinked::payload() const
{
  return {{"attempt", attempt.to_json()}, {"add", links_json(add)}, {"remove", links_json(remove)}};
}

AttemptLinked AttemptLinked::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {ref_field(p, "attempt"), links_from(p, "add"), links_from(p, "remove")};
}

json BenchRevision::payload() const
{
  return {{"name", name}, {"revision", revision}, {"definition", definition}};
}

BenchRevision BenchRevision::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {event.type == edited_type, text(p, "name"), static_cast<int>(integer(p, "revision")),
          member(p, "definition", json::object())};
}

json ProbeAdded::payload() const
{
  return {{"name", name}, {"definition", definition}};
}

ProbeAdded ProbeAdded::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "name"), member(p, "definition", json::object())};
}

json ProbeRemoved::payload() const
{
  return {{"name", name}};
}

ProbeRemoved ProbeRemoved::read(const Event& event)
{
  return {text(payload_of(event), "name")};
}

json RunStarted::payload() const
{
  json out = {{"run", number},
          {"bench", bench},
          {"revision", revision},
          {"bench_revision", bench_revision.to_json()},
          {"attempt", attempt.to_json()},
          {"label", label},
          {"params", params},
          {"git", core::to_json(git)},
          {"env_blob", env_blob},
          {"env_readings", env_readings},
          {"host", host},
          {"pid", pid},
          {"pid_start_ticks", pid_start_ticks},
          {"boot_id", boot_id}};
  if (on.is_object()) {
    out["on"] = on;
  }
  if (!env.empty()) {
    auto& list = out["env"] = json::array();
    for (const auto& [name, value] : env) {
      list.push_back(json::array({name, value}));
    }
  }
  return out;
}

RunStarted RunStarted::read(const Event& event)
{
  const auto& p = payload_of(event);
  RunStarted out;
  out.number = integer(p, "run");
  out.bench = text(p, "bench");
  out.revision = static_cast<int>(integer(p, "revision"));
  out.bench_revision = ref_field(p, "bench_revision");
  out.attempt = ref_field(p, "attempt");
  out.label = text(p, "label");
  out.params = member(p, "params", json::object());
  out.git = core::git_context_from_json(member(p, "git", json::object()));
  out.env_blob = text(p, "env_blob");
  out.env_readings = member(p, "env_readings", json::object());
  out.host = text(p, "host");
  out.pid = integer(p, "pid");
  out.pid_start_ticks = integer(p, "pid_start_ticks");
  out.boot_id = text(p, "boot_id");
  if (const auto it = p.find("on"); it != p.end() && it->is_object()) {
    out.on = *it;
  }
  if (const auto it = p.find("env"); it != p.end() && it->is_array()) {
    for (const auto& entry : *it) {
      if (entry.is_array() && entry.size() == 2 && entry[0].is_string() && entry[1].is_string()) {
        out.env.emplace_back(entry[0].get<std::string>(), entry[1].get<std::string>());
      }
    }
  }
  return out;
}

json RunRepeats::payload() const
{
  // Member by member, not from initializer lists (which copy every value twice): a batch holds a
  // second of repeats, built between two of them.
  json list = json::array();
  list.get_ref<json::array_t&>().reserve(repeats.size());
  for (const auto& repeat : repeats) {
    json& item = list.emplace_back(json::object());
    item.emplace("idx", repeat.index);
    item.emplace("params", repeat.params);
    item.emplace("warmup", repeat.warmup);
    item.emplace("ending", core::to_string(repeat.ending));
    item.emplace("exit_code", repeat.exit_code);
    item.emplace("signal", repeat.signal);
    item.emplace("wall_s", repeat.wall_s);
    item.emplace("user_s", repeat.user_s);
    item.emplace("sys_s", repeat.sys_s);
    item.emplace("max_rss_kb", repeat.max_rss_kb);
    item.emplace("samples", samples_json(repeat.samples));
    if (!repeat.device.empty()) {
      item.emplace("device", device_json(repeat.device));
    }
  }
  json out = json::object();
  out.emplace("run", run.to_json());
  out.emplace("repeats", std::move(list));
  return out;
}

RunRepeats RunRepeats::read(const Event& event)
{
  const auto& p = payload_of(event);
  RunRepeats out;
  out.run = ref_field(p, "run");
  const auto it = p.find("repeats");
  if (it == p.end() || !it->is_array()) {
    return out;
  }
  out.repeats.reserve(it->size());
  for (const auto& item : *it) {
    if (!item.is_object()) {
      continue;
    }
    Repeat repeat;
    repeat.index = static_cast<int>(integer(item, "idx"));
    repeat.params = member(item, "params", json::object());
    repeat.warmup = boolean(item, "warmup");
    repeat.ending = read_repeat_ending(text(item, "ending"));
    repeat.exit_code = static_cast<int>(integer(item, "exit_code"));
    repeat.signal = static_cast<int>(integer(item, "signal"));
    repeat.wall_s = real(item, "wall_s");
    repeat.user_s = real(item, "user_s");
    repeat.sys_s = real(item, "sys_s");
    repeat.max_rss_kb = integer(item, "max_rss_kb");
    repeat.samples = samples_from(item);
    if (const auto device = item.find("device"); device != item.end()) {
      repeat.device = device_from_json(*device);
    }
    out.repeats.push_back(std::move(repeat));
  }
  return out;
}

json RunSamples::payload() const
{
  json label_list = json::array();
  for (const auto& label : labels) {
    json& item = label_list.emplace_back(json::object());
    item.emplace("metric", label.metric);
    item.emplace("key", label.key);
    item.emplace("unit", label.unit);
    if (label.kind != core::SampleKind::Sample) {
      item.emplace("kind", core::to_string(label.kind));
    }
  }
  json out = json::object();
  out.emplace("run", run.to_json());
  out.emplace("idx", index);
  out.emplace("first", first);
  out.emplace("labels", std::move(label_list));
  if (!label_of.empty()) {
    out.emplace("label_of", label_of);
  }
  out.emplace("values", values);
  return out;
}

RunSamples RunSamples::read(const Event& event)
{
  const auto& p = payload_of(event);
  RunSamples out;
  out.run = ref_field(p, "run");
  out.index = static_cast<int>(integer(p, "idx"));
  out.first = integer(p, "first");
  if (const auto it = p.find("labels"); it != p.end() && it->is_array()) {
    for (const auto& item : *it) {
      if (item.is_object()) {
        out.labels.push_back({text(item, "metric"), text(item, "key"), text(item, "unit"),
                              read_sample_kind(text(item, "kind"))});
      }
    }
  }
  if (const auto it = p.find("values"); it != p.end() && it->is_array()) {
    out.values.reserve(it->size());
    for (const auto& item : *it) {
      out.values.push_back(item.is_number() ? item.get<double>() : 0.0);
    }
  }
  if (const auto it = p.find("label_of"); it != p.end() && it->is_array()) {
    out.label_of.reserve(it->size());
    for (const auto& item : *it) {
      out.label_of.push_back(item.is_number_unsigned() ? item.get<std::uint32_t>() : 0);
    }
  }
  return out;
}

json RunFinished::payload() const
{
  return {
      {"run", run.to_json()}, {"status", core::to_string(status)}, {"reason", reason}, {"outputs", outputs}};
}

RunFinished RunFinished::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {ref_field(p, "run"), read_run_status(text(p, "status")), text(p, "reason"),
          member(p, "outputs", json::object())};
}

json RunImported::payload() const
{
  json out = {{"run", number},
              {"bench", bench},
              {"revision", revision},
              {"bench_revision", bench_revision.to_json()},
              {"attempt", attempt.to_json()},
              {"source", source},
              {"label", label},
              {"params", params},
              {"samples", samples_json(samples)}};
  if (when_ms) {
    out["when_ms"] = *when_ms;
  }
  return out;
}

RunImported RunImported::read(const Event& event)
{
  const auto& p = payload_of(event);
  RunImported out;
  out.number = integer(p, "run");
  out.bench = text(p, "bench");
  out.revision = static_cast<int>(integer(p, "revision"));
  out.bench_revision = ref_field(p, "bench_revision");
  out.attempt = ref_field(p, "attempt");
  out.source = text(p, "source");
  out.label = text(p, "label");
  if (p.contains("when_ms")) {
    out.when_ms = integer(p, "when_ms");
  }
  out.params = member(p, "params", json::object());
  out.samples = samples_from(p);
  return out;
}

json RunWithdrawal::payload() const
{
  return {{"run", run.to_json()}, {"reason", reason}};
}

RunWithdrawal RunWithdrawal::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {event.type == restored_type, ref_field(p, "run"), text(p, "reason")};
}

json BaselinePinned::payload() const
{
  return {{"plan", plan}, {"bench", bench}, {"run", run.to_json()}, {"reason", reason}};
}

BaselinePinned BaselinePinned::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "plan"), text(p, "bench"), ref_field(p, "run"), text(p, "reason")};
}

json BaselineExplained::payload() const
{
  return {{"plan", plan}, {"bench", bench}, {"pin", pin}, {"reason", reason}};
}

BaselineExplained BaselineExplained::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "plan"), text(p, "bench"), text(p, "pin"), text(p, "reason")};
}

json StepAcknowledged::payload() const
{
  json out = {{"bench", bench}, {"commit", commit}, {"reason", reason}};
  if (!metric.empty()) {
    out["metric"] = metric;
  }
  return out;
}

StepAcknowledged StepAcknowledged::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "bench"), text(p, "metric"), text(p, "commit"), text(p, "reason")};
}

json StepLocated::payload() const
{
  json out_skipped = json::array();
  for (const auto& skip : skipped) {
    out_skipped.push_back({{"commit", skip.commit}, {"why", skip.why}});
  }
  // An unbounded end of the interval is null: JSON has no infinity.
  const auto finite = [](double value) { return std::isfinite(value) ? json(value) : json(nullptr); };
  json out = {{"bench", bench},
              {"metric", metric},
              {"good", good},
              {"bad", bad},
              {"first_bad", first_bad},
              {"candidates", candidates},
              {"skipped", out_skipped},
              {"min_effect_pct", min_effect_pct},
              {"candidate", candidate.to_json()},
              {"reference", reference.to_json()},
              {"scale", log_ratio ? "log-ratio" : "difference"},
              {"estimate", finite(estimate)},
              {"low", finite(low)},
              {"high", finite(high)},
              {"unit", unit}};
  if (!params.empty()) {
    out["params"] = params;
  }
  return out;
}

StepLocated StepLocated::read(const Event& event)
{
  const auto& p = payload_of(event);
  StepLocated out;
  out.bench = text(p, "bench");
  out.metric = text(p, "metric");
  out.params = text(p, "params");
  out.good = text(p, "good");
  out.bad = text(p, "bad");
  out.first_bad = text(p, "first_bad");
  out.candidates = strings(p, "candidates");
  for (const auto& skip : member(p, "skipped", json::array())) {
    if (skip.is_object()) {
      out.skipped.push_back({text(skip, "commit"), text(skip, "why")});
    }
  }
  out.min_effect_pct = real(p, "min_effect_pct");
  out.candidate = ref_field(p, "candidate");
  out.reference = ref_field(p, "reference");
  out.log_ratio = text(p, "scale") != "difference";
  out.estimate = real(p, "estimate");
  constexpr double infinity = std::numeric_limits<double>::infinity();
  out.low = optional_real(p, "low").value_or(-infinity);
  out.high = optional_real(p, "high").value_or(infinity);
  out.unit = text(p, "unit");
  return out;
}

json JournalPurged::payload() const
{
  return {{"events", events}, {"blobs", blobs}};
}

JournalPurged JournalPurged::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {static_cast<int>(integer(p, "events")), static_cast<int>(integer(p, "blobs"))};
}

json NumbersClaimed::payload() const
{
  return {{"kind", kind}, {"first", first}, {"ids", ids}};
}

NumbersClaimed NumbersClaimed::read(const Event& event)
{
  const auto& p = payload_of(event);
  return {text(p, "kind"), integer(p, "first"), strings(p, "ids")};
}

json ComparisonInterleaved::payload() const
{
  json out_rounds = json::array();
  for (const auto& round : rounds) {
    out_rounds.push_back({{"params", round.params},
                          {"order", round.reference_first ? "rc" : "cr"},
                          {"candidate", {round.candidate_first, round.candidate_end}},
                          {"reference", {round.reference_first_index, round.reference_end}}});
  }
  json out = {{"candidate", candidate.to_json()},
              {"reference", reference.to_json()},
              {"reference_name", reference_name},
              {"seed", seed},
              {"block", block},
              {"warmup", warmup},
              {"max_rounds", max_rounds},
              {"alpha", alpha},
              {"stopped", stopped},
              {"rounds", out_rounds}};
  if (!purpose.empty()) {
    out["purpose"] = purpose;
  }
  if (!metric.empty()) {
    out["metric"] = metric;
  }
  if (min_effect_pct) {
    out["min_effect_pct"] = *min_effect_pct;
  }
  return out;
}

ComparisonInterleaved ComparisonInterleaved::read(const Event& event)
{
  const auto& p = payload_of(event);
  ComparisonInterleaved out;
  out.candidate = ref_field(p, "candidate");
  out.reference = ref_field(p, "reference");
  out.reference_name = text(p, "reference_name");
  out.seed = text(p, "seed");
  out.block = static_cast<int>(integer(p, "block"));
  out.warmup = static_cast<int>(integer(p, "warmup"));
  out.max_rounds = static_cast<int>(integer(p, "max_rounds"));
  out.alpha = real(p, "alpha");
  out.stopped = text(p, "stopped");
  out.purpose = text(p, "purpose");
  out.metric = text(p, "metric");
  out.min_effect_pct = optional_real(p, "min_effect_pct");
  // A malformed range reads as empty: the round then pairs nothing.
  const auto range = [](const json& round, const char* key, int& first, int& end) {
    const auto value = member(round, key, json::array());
    if (value.size() == 2 && value[0].is_number_integer() && value[1].is_number_integer()) {
      first = value[0].get<int>();
      end = value[1].get<int>();
    }
  };
  for (const auto& round : member(p, "rounds", json::array())) {
    if (!round.is_object()) {
      continue;
    }
    Round r;
    r.params = text(round, "params");
    r.reference_first = text(round, "order") == "rc";
    range(round, "candidate", r.candidate_first, r.candidate_end);
    range(round, "reference", r.reference_first_index, r.reference_end);
    out.rounds.push_back(std::move(r));
  }
  return out;
}

const std::vector<std::string_view>& known_types()
{
  static const std::vector<std::string_view> types = {
      PlanCreated::type,
      PlanEdited::type,
      AttemptCreated::type,
      AttemptStatus::type,
      AttemptNote::type,
      AttemptEdited::type,
      AttemptLinked::type,
      BenchRevision::added_type,
      BenchRevision::edited_type,
      ProbeAdded::type,
      ProbeRemoved::type,
      RunStarted::type,
      RunRepeats::type,
      RunSamples::type,
      RunFinished::type,
      RunImported::type,
      RunWithdrawal::withdrawn_type,
      RunWithdrawal::restored_type,
      BaselinePinned::type,
      BaselineExplained::type,
      JournalPurged::type,
      NumbersClaimed::type,
      StepAcknowledged::type,
      ComparisonInterleaved::type,
      StepLocated::type,
  };
  return types;
}

bool is_known_type(std::string_view type)
{
  const auto& types = known_types();
  return std::find(types.begin(), types.end(), type) != types.end();
}

} // namespace ej::store::events
