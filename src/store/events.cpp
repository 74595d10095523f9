#include "store/events.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>

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

std::optional<double> optional_real(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
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

// A member, or null when there is none.
const json& at(const json& object, const char* key)
{
  static const json none;
  const auto it = object.find(key);
  return it != object.end() ? *it : none;
}

// The items of a list that `keep` accepts, each as `as` reads it; none when it is not a list.
template <typename Value, typename Keep, typename As>
std::vector<Value> items(const json& list, Keep keep, As as)
{
  std::vector<Value> out;
  if (list.is_array()) {
    out.reserve(list.size());
    for (const auto& item : list) {
      if (keep(item)) {
        out.push_back(as(item));
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

// A payload is written and read from one list of fields per type: the key of each and the member
// that holds it. A field `if_set` is left out of the payload while empty, false or unset (fields
// added in later versions, so that what earlier versions wrote stays the same); any other field is
// always written, an unset optional as null.
template <typename Owner, typename Value, bool IfSet> struct Field {
  static constexpr bool if_set = IfSet;
  const char* key;
  Value Owner::*member;
};

template <typename Owner, typename Value>
constexpr Field<Owner, Value, false> field(const char* key, Value Owner::*member)
{
  return {key, member};
}

template <typename Owner, typename Value>
constexpr Field<Owner, Value, true> field_if_set(const char* key, Value Owner::*member)
{
  return {key, member};
}

// The list of a type's fields, for the types that have one (below).
template <typename Type> constexpr std::nullptr_t k_fields = nullptr;
template <typename Type>
concept HasFields = !std::is_null_pointer_v<std::remove_cvref_t<decltype(k_fields<Type>)>>;

template <HasFields Type> json write_fields(const Type& value);
template <HasFields Type> Type read_fields(const json& object);

template <typename Value> bool is_set(const Value& value)
{
  if constexpr (requires { value.has_value(); }) {
    return value.has_value();
  } else if constexpr (requires { value.empty(); }) {
    return !value.empty();
  } else {
    return value != Value{};
  }
}

// One value as its payload holds it.
json as_json(const Ref& ref)
{
  return ref.to_json();
}

json as_json(const core::GitContext& git)
{
  return core::to_json(git);
}

template <typename Value> json as_json(const Value& value)
{
  if constexpr (HasFields<Value>) {
    return write_fields(value);
  } else if constexpr (std::is_enum_v<Value>) {
    return core::to_string(value);
  } else {
    return json(value);
  }
}

template <typename Value> json as_json(const std::optional<Value>& value)
{
  return value ? as_json(*value) : json(nullptr);
}

template <typename Value> json as_json(const std::vector<Value>& values)
{
  // Member by member, not from initializer lists (which copy every value twice): a batch of repeats
  // holds a second of them, built between two of them.
  json list = json::array();
  list.get_ref<json::array_t&>().reserve(values.size());
  for (const auto& value : values) {
    list.push_back(as_json(value));
  }
  return list;
}

// One value as read from its payload, its default when missing or mistyped.
void read_value(const json& object, const char* key, std::string& out)
{
  out = text(object, key);
}

void read_value(const json& object, const char* key, int& out)
{
  out = static_cast<int>(integer(object, key));
}

void read_value(const json& object, const char* key, std::int64_t& out)
{
  out = integer(object, key);
}

void read_value(const json& object, const char* key, double& out)
{
  out = real(object, key);
}

void read_value(const json& object, const char* key, bool& out)
{
  out = boolean(object, key);
}

void read_value(const json& object, const char* key, json& out)
{
  out = member(object, key, json::object());
}

void read_value(const json& object, const char* key, Ref& out)
{
  out = Ref::from_json(at(object, key));
}

void read_value(const json& object, const char* key, core::GitContext& out)
{
  out = core::git_context_from_json(member(object, key, json::object()));
}

void read_value(const json& object, const char* key, core::RunStatus& out)
{
  out = read_run_status(text(object, key));
}

void read_value(const json& object, const char* key, core::RepeatEnding& out)
{
  out = read_repeat_ending(text(object, key));
}

void read_value(const json& object, const char* key, core::SampleKind& out)
{
  out = read_sample_kind(text(object, key));
}

// A word no version wrote is taken as a failed session: its rounds are not trusted.
void read_value(const json& object, const char* key, core::SessionStop& out)
{
  out = core::parse_session_stop(text(object, key)).value_or(core::SessionStop::Failed);
}

void read_value(const json& object, const char* key, std::vector<std::string>& out)
{
  out = strings(object, key);
}

void read_value(const json& object, const char* key, std::vector<double>& out)
{
  out = items<double>(
      at(object, key), [](const json&) { return true; },
      [](const json& item) { return item.is_number() ? item.get<double>() : 0.0; });
}

void read_value(const json& object, const char* key, std::vector<std::uint32_t>& out)
{
  out = items<std::uint32_t>(
      at(object, key), [](const json&) { return true; },
      [](const json& item) { return item.is_number_unsigned() ? item.get<std::uint32_t>() : 0; });
}

void read_value(const json& object, const char* key, std::optional<std::string>& out)
{
  out = optional_text(object, key);
}

void read_value(const json& object, const char* key, std::optional<double>& out)
{
  out = optional_real(object, key);
}

// Present, it is read as a number (0 when it is none).
void read_value(const json& object, const char* key, std::optional<std::int64_t>& out)
{
  out = object.contains(key) ? std::optional(integer(object, key)) : std::nullopt;
}

void read_value(const json& object, const char* key, std::optional<std::vector<std::string>>& out)
{
  const auto it = object.find(key);
  out = it != object.end() && it->is_array() ? std::optional(strings(object, key)) : std::nullopt;
}

template <HasFields Value> void read_value(const json& object, const char* key, std::optional<Value>& out)
{
  const auto it = object.find(key);
  out = it != object.end() && it->is_object() ? std::optional(read_fields<Value>(*it)) : std::nullopt;
}

template <HasFields Value> std::vector<Value> read_list(const json& list)
{
  return items<Value>(
      list, [](const json& item) { return item.is_object(); },
      [](const json& item) { return read_fields<Value>(item); });
}

template <HasFields Value> void read_value(const json& object, const char* key, std::vector<Value>& out)
{
  out = read_list<Value>(at(object, key));
}

template <HasFields Type> json write_fields(const Type& value)
{
  json out = json::object();
  std::apply(
      [&](const auto&... fields) {
        const auto put = [&]<typename Field>(const Field& field) {
          const auto& member = value.*field.member;
          if constexpr (Field::if_set) {
            if (!is_set(member)) {
              return;
            }
          }
          out.emplace(field.key, as_json(member));
        };
        (put(fields), ...);
      },
      k_fields<Type>);
  return out;
}

template <HasFields Type> Type read_fields(const json& object)
{
  Type out;
  std::apply([&](const auto&... fields) { (read_value(object, fields.key, out.*fields.member), ...); },
             k_fields<Type>);
  return out;
}

// The parts of payloads.

template <>
constexpr auto k_fields<core::Range> = std::tuple{
    field("min", &core::Range::min), field("median", &core::Range::median), field("max", &core::Range::max)};

template <>
constexpr auto k_fields<core::GpuRepeatState> =
    std::tuple{field("gpu", &core::GpuRepeatState::index),
               field("uuid", &core::GpuRepeatState::uuid),
               field("samples", &core::GpuRepeatState::samples),
               field("sm_clock_mhz", &core::GpuRepeatState::sm_clock_mhz),
               field("memory_clock_mhz", &core::GpuRepeatState::memory_clock_mhz),
               field("power_w", &core::GpuRepeatState::power_w),
               field("temperature_max_c", &core::GpuRepeatState::temperature_max_c),
               field("utilization_max_pct", &core::GpuRepeatState::utilization_max_pct),
               field("reasons", &core::GpuRepeatState::reasons),
               field_if_set("lost", &core::GpuRepeatState::lost)};

template <>
constexpr auto k_fields<AttemptLink> =
    std::tuple{field("kind", &AttemptLink::kind), field("to", &AttemptLink::to)};

template <>
constexpr auto k_fields<Sample> =
    std::tuple{field("metric", &Sample::metric), field("key", &Sample::key), field("value", &Sample::value),
               field("unit", &Sample::unit), field_if_set("kind", &Sample::kind)};

template <>
constexpr auto k_fields<Repeat> =
    std::tuple{field("idx", &Repeat::index),           field("params", &Repeat::params),
               field("warmup", &Repeat::warmup),       field("ending", &Repeat::ending),
               field("exit_code", &Repeat::exit_code), field("signal", &Repeat::signal),
               field("wall_s", &Repeat::wall_s),       field("user_s", &Repeat::user_s),
               field("sys_s", &Repeat::sys_s),         field("max_rss_kb", &Repeat::max_rss_kb),
               field("samples", &Repeat::samples),     field_if_set("device", &Repeat::device)};

template <>
constexpr auto k_fields<RunSamples::Label> =
    std::tuple{field("metric", &RunSamples::Label::metric), field("key", &RunSamples::Label::key),
               field("unit", &RunSamples::Label::unit), field_if_set("kind", &RunSamples::Label::kind)};

template <>
constexpr auto k_fields<StepLocated::Skipped> =
    std::tuple{field("commit", &StepLocated::Skipped::commit), field("why", &StepLocated::Skipped::why)};

} // namespace

json device_json(const core::DeviceState& device)
{
  return as_json(device);
}

core::DeviceState device_from_json(const json& value)
{
  return read_list<core::GpuRepeatState>(value);
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

// The payload of each event type, as docs/events.md has it. Fields a later version added are
// `if_set`: a payload that does not use them is what earlier versions wrote.

template <>
constexpr auto k_fields<PlanCreated> = std::tuple{field("slug", &PlanCreated::slug),
                                                  field("title", &PlanCreated::title),
                                                  field("goal", &PlanCreated::goal),
                                                  field("target", &PlanCreated::target),
                                                  field("doc", &PlanCreated::doc),
                                                  field_if_set("targets", &PlanCreated::targets),
                                                  field_if_set("measures", &PlanCreated::measures),
                                                  field_if_set("headline", &PlanCreated::headline)};

// Only the fields present change.
template <>
constexpr auto k_fields<PlanEdited> = std::tuple{field("slug", &PlanEdited::slug),
                                                 field_if_set("title", &PlanEdited::title),
                                                 field_if_set("goal", &PlanEdited::goal),
                                                 field_if_set("target", &PlanEdited::target),
                                                 field_if_set("doc", &PlanEdited::doc),
                                                 field_if_set("targets", &PlanEdited::targets),
                                                 field_if_set("measures", &PlanEdited::measures),
                                                 field_if_set("headline", &PlanEdited::headline)};

// "attempt" is the writer's number, as in version 1, so that older readers still place it.
template <>
constexpr auto k_fields<AttemptCreated> =
    std::tuple{field("attempt", &AttemptCreated::number),  field("plan", &AttemptCreated::plan),
               field("title", &AttemptCreated::title),     field("hypothesis", &AttemptCreated::hypothesis),
               field("command", &AttemptCreated::command), field("tags", &AttemptCreated::tags),
               field("links", &AttemptCreated::links),     field("git", &AttemptCreated::git)};

template <>
constexpr auto k_fields<AttemptStatus> =
    std::tuple{field("attempt", &AttemptStatus::attempt), field("status", &AttemptStatus::status),
               field("reason", &AttemptStatus::reason), field("git", &AttemptStatus::git)};

template <>
constexpr auto k_fields<AttemptNote> =
    std::tuple{field("attempt", &AttemptNote::attempt), field("text", &AttemptNote::text)};

template <>
constexpr auto k_fields<AttemptEdited> = std::tuple{field("attempt", &AttemptEdited::attempt),
                                                    field_if_set("title", &AttemptEdited::title),
                                                    field_if_set("hypothesis", &AttemptEdited::hypothesis),
                                                    field_if_set("command", &AttemptEdited::command),
                                                    field_if_set("add_tags", &AttemptEdited::add_tags),
                                                    field_if_set("remove_tags", &AttemptEdited::remove_tags)};

template <>
constexpr auto k_fields<AttemptLinked> =
    std::tuple{field("attempt", &AttemptLinked::attempt), field("add", &AttemptLinked::add),
               field("remove", &AttemptLinked::remove)};

template <>
constexpr auto k_fields<BenchRevision> =
    std::tuple{field("name", &BenchRevision::name), field("revision", &BenchRevision::revision),
               field("definition", &BenchRevision::definition)};

template <>
constexpr auto k_fields<ProbeAdded> =
    std::tuple{field("name", &ProbeAdded::name), field("definition", &ProbeAdded::definition)};

template <> constexpr auto k_fields<ProbeRemoved> = std::tuple{field("name", &ProbeRemoved::name)};

// Also "on" and "env", written only when there are.
template <>
constexpr auto k_fields<RunStarted> = std::tuple{field("run", &RunStarted::number),
                                                 field("bench", &RunStarted::bench),
                                                 field("revision", &RunStarted::revision),
                                                 field("bench_revision", &RunStarted::bench_revision),
                                                 field("attempt", &RunStarted::attempt),
                                                 field("label", &RunStarted::label),
                                                 field("params", &RunStarted::params),
                                                 field("git", &RunStarted::git),
                                                 field("env_blob", &RunStarted::env_blob),
                                                 field("env_readings", &RunStarted::env_readings),
                                                 field("host", &RunStarted::host),
                                                 field("pid", &RunStarted::pid),
                                                 field("pid_start_ticks", &RunStarted::pid_start_ticks),
                                                 field("boot_id", &RunStarted::boot_id)};

template <>
constexpr auto k_fields<RunRepeats> =
    std::tuple{field("run", &RunRepeats::run), field("repeats", &RunRepeats::repeats)};

template <>
constexpr auto k_fields<RunSamples> = std::tuple{field("run", &RunSamples::run),
                                                 field("idx", &RunSamples::index),
                                                 field("first", &RunSamples::first),
                                                 field("labels", &RunSamples::labels),
                                                 field_if_set("label_of", &RunSamples::label_of),
                                                 field("values", &RunSamples::values)};

template <>
constexpr auto k_fields<RunFinished> =
    std::tuple{field("run", &RunFinished::run), field("status", &RunFinished::status),
               field("reason", &RunFinished::reason), field("outputs", &RunFinished::outputs)};

template <>
constexpr auto k_fields<RunImported> = std::tuple{
    field("run", &RunImported::number),        field("bench", &RunImported::bench),
    field("revision", &RunImported::revision), field("bench_revision", &RunImported::bench_revision),
    field("attempt", &RunImported::attempt),   field("source", &RunImported::source),
    field("label", &RunImported::label),       field_if_set("when_ms", &RunImported::when_ms),
    field("params", &RunImported::params),     field("samples", &RunImported::samples)};

template <>
constexpr auto k_fields<RunWithdrawal> =
    std::tuple{field("run", &RunWithdrawal::run), field("reason", &RunWithdrawal::reason)};

template <>
constexpr auto k_fields<BaselinePinned> =
    std::tuple{field("plan", &BaselinePinned::plan), field("bench", &BaselinePinned::bench),
               field("run", &BaselinePinned::run), field("reason", &BaselinePinned::reason)};

template <>
constexpr auto k_fields<BaselineExplained> =
    std::tuple{field("plan", &BaselineExplained::plan), field("bench", &BaselineExplained::bench),
               field("pin", &BaselineExplained::pin), field("reason", &BaselineExplained::reason)};

template <>
constexpr auto k_fields<StepAcknowledged> =
    std::tuple{field("bench", &StepAcknowledged::bench), field_if_set("metric", &StepAcknowledged::metric),
               field("commit", &StepAcknowledged::commit), field("reason", &StepAcknowledged::reason)};

// Also "scale", "estimate", "low" and "high".
template <>
constexpr auto k_fields<StepLocated> = std::tuple{field("bench", &StepLocated::bench),
                                                  field("metric", &StepLocated::metric),
                                                  field_if_set("params", &StepLocated::params),
                                                  field("good", &StepLocated::good),
                                                  field("bad", &StepLocated::bad),
                                                  field("first_bad", &StepLocated::first_bad),
                                                  field("candidates", &StepLocated::candidates),
                                                  field("skipped", &StepLocated::skipped),
                                                  field("min_effect_pct", &StepLocated::min_effect_pct),
                                                  field("candidate", &StepLocated::candidate),
                                                  field("reference", &StepLocated::reference),
                                                  field("unit", &StepLocated::unit)};

template <>
constexpr auto k_fields<JournalPurged> =
    std::tuple{field("events", &JournalPurged::events), field("blobs", &JournalPurged::blobs)};

template <>
constexpr auto k_fields<NumbersClaimed> =
    std::tuple{field("kind", &NumbersClaimed::kind), field("first", &NumbersClaimed::first),
               field("ids", &NumbersClaimed::ids)};

// Also "rounds".
template <>
constexpr auto k_fields<ComparisonInterleaved> =
    std::tuple{field("candidate", &ComparisonInterleaved::candidate),
               field("reference", &ComparisonInterleaved::reference),
               field("reference_name", &ComparisonInterleaved::reference_name),
               field("seed", &ComparisonInterleaved::seed),
               field("block", &ComparisonInterleaved::block),
               field("warmup", &ComparisonInterleaved::warmup),
               field("max_rounds", &ComparisonInterleaved::max_rounds),
               field("alpha", &ComparisonInterleaved::alpha),
               field("stopped", &ComparisonInterleaved::stopped),
               field_if_set("purpose", &ComparisonInterleaved::purpose),
               field_if_set("metric", &ComparisonInterleaved::metric),
               field_if_set("min_effect_pct", &ComparisonInterleaved::min_effect_pct)};

// What a list of fields cannot say: the parts of some payloads written or read another way.

void write_more(const RunStarted& run, json& out)
{
  if (run.on.is_object()) {
    out["on"] = run.on;
  }
  if (!run.env.empty()) {
    auto& list = out["env"] = json::array();
    for (const auto& [name, value] : run.env) {
      list.push_back(json::array({name, value}));
    }
  }
}

void read_more(const Event& event, RunStarted& out)
{
  const auto& p = payload_of(event);
  if (const auto& on = at(p, "on"); on.is_object()) {
    out.on = on;
  }
  const auto pair = [](const json& entry) {
    return entry.is_array() && entry.size() == 2 && entry[0].is_string() && entry[1].is_string();
  };
  out.env = items<std::pair<std::string, std::string>>(at(p, "env"), pair, [](const json& entry) {
    return std::pair(entry[0].get<std::string>(), entry[1].get<std::string>());
  });
}

void read_more(const Event& event, BenchRevision& out)
{
  out.edited = event.type == BenchRevision::edited_type;
}

void read_more(const Event& event, RunWithdrawal& out)
{
  out.restored = event.type == RunWithdrawal::restored_type;
}

void write_more(const StepLocated& step, json& out)
{
  out["scale"] = step.log_ratio ? "log-ratio" : "difference";
  // An unbounded end of the interval is null: JSON has no infinity.
  const auto finite = [](double value) { return std::isfinite(value) ? json(value) : json(nullptr); };
  out["estimate"] = finite(step.estimate);
  out["low"] = finite(step.low);
  out["high"] = finite(step.high);
}

void read_more(const Event& event, StepLocated& out)
{
  const auto& p = payload_of(event);
  out.log_ratio = text(p, "scale") != "difference";
  out.estimate = real(p, "estimate");
  constexpr double infinity = std::numeric_limits<double>::infinity();
  out.low = optional_real(p, "low").value_or(-infinity);
  out.high = optional_real(p, "high").value_or(infinity);
}

void write_more(const ComparisonInterleaved& comparison, json& out)
{
  auto& list = out["rounds"] = json::array();
  for (const auto& round : comparison.rounds) {
    list.push_back({{"params", round.params},
                    {"order", round.reference_first ? "rc" : "cr"},
                    {"candidate", {round.candidate_first, round.candidate_end}},
                    {"reference", {round.reference_first_index, round.reference_end}}});
  }
}

void read_more(const Event& event, ComparisonInterleaved& out)
{
  // A malformed range reads as empty: the round then pairs nothing.
  const auto range = [](const json& round, const char* key, int& first, int& end) {
    const auto value = member(round, key, json::array());
    if (value.size() == 2 && value[0].is_number_integer() && value[1].is_number_integer()) {
      first = value[0].get<int>();
      end = value[1].get<int>();
    }
  };
  for (const auto& round : member(payload_of(event), "rounds", json::array())) {
    if (!round.is_object()) {
      continue;
    }
    ComparisonInterleaved::Round r;
    r.params = text(round, "params");
    r.reference_first = text(round, "order") == "rc";
    range(round, "candidate", r.candidate_first, r.candidate_end);
    range(round, "reference", r.reference_first_index, r.reference_end);
    out.rounds.push_back(std::move(r));
  }
}

// Every type's payload is its fields, and for some types more.
template <HasFields Type> json payload_from(const Type& value)
{
  json out = write_fields(value);
  if constexpr (requires { write_more(value, out); }) {
    write_more(value, out);
  }
  return out;
}

template <HasFields Type> Type event_from(const Event& event)
{
  auto out = read_fields<Type>(payload_of(event));
  if constexpr (requires { read_more(event, out); }) {
    read_more(event, out);
  }
  return out;
}

} // namespace

bool AttemptEdited::changes_nothing() const
{
  return !title && !hypothesis && !command && add_tags.empty() && remove_tags.empty();
}

json PlanCreated::payload() const
{
  return payload_from(*this);
}

PlanCreated PlanCreated::read(const Event& event)
{
  return event_from<PlanCreated>(event);
}

json PlanEdited::payload() const
{
  return payload_from(*this);
}

PlanEdited PlanEdited::read(const Event& event)
{
  return event_from<PlanEdited>(event);
}

json AttemptCreated::payload() const
{
  return payload_from(*this);
}

AttemptCreated AttemptCreated::read(const Event& event)
{
  return event_from<AttemptCreated>(event);
}

json AttemptStatus::payload() const
{
  return payload_from(*this);
}

AttemptStatus AttemptStatus::read(const Event& event)
{
  return event_from<AttemptStatus>(event);
}

json AttemptNote::payload() const
{
  return payload_from(*this);
}

AttemptNote AttemptNote::read(const Event& event)
{
  return event_from<AttemptNote>(event);
}

json AttemptEdited::payload() const
{
  return payload_from(*this);
}

AttemptEdited AttemptEdited::read(const Event& event)
{
  return event_from<AttemptEdited>(event);
}

json AttemptLinked::payload() const
{
  return payload_from(*this);
}

AttemptLinked AttemptLinked::read(const Event& event)
{
  return event_from<AttemptLinked>(event);
}

json BenchRevision::payload() const
{
  return payload_from(*this);
}

BenchRevision BenchRevision::read(const Event& event)
{
  return event_from<BenchRevision>(event);
}

json ProbeAdded::payload() const
{
  return payload_from(*this);
}

ProbeAdded ProbeAdded::read(const Event& event)
{
  return event_from<ProbeAdded>(event);
}

json ProbeRemoved::payload() const
{
  return payload_from(*this);
}

ProbeRemoved ProbeRemoved::read(const Event& event)
{
  return event_from<ProbeRemoved>(event);
}

json RunStarted::payload() const
{
  return payload_from(*this);
}

RunStarted RunStarted::read(const Event& event)
{
  return event_from<RunStarted>(event);
}

json RunRepeats::payload() const
{
  return payload_from(*this);
}

RunRepeats RunRepeats::read(const Event& event)
{
  return event_from<RunRepeats>(event);
}

json RunSamples::payload() const
{
  return payload_from(*this);
}

RunSamples RunSamples::read(const Event& event)
{
  return event_from<RunSamples>(event);
}

json RunFinished::payload() const
{
  return payload_from(*this);
}

RunFinished RunFinished::read(const Event& event)
{
  return event_from<RunFinished>(event);
}

json RunImported::payload() const
{
  return payload_from(*this);
}

RunImported RunImported::read(const Event& event)
{
  return event_from<RunImported>(event);
}

json RunWithdrawal::payload() const
{
  return payload_from(*this);
}

RunWithdrawal RunWithdrawal::read(const Event& event)
{
  return event_from<RunWithdrawal>(event);
}

json BaselinePinned::payload() const
{
  return payload_from(*this);
}

BaselinePinned BaselinePinned::read(const Event& event)
{
  return event_from<BaselinePinned>(event);
}

json BaselineExplained::payload() const
{
  return payload_from(*this);
}

BaselineExplained BaselineExplained::read(const Event& event)
{
  return event_from<BaselineExplained>(event);
}

json StepAcknowledged::payload() const
{
  return payload_from(*this);
}

StepAcknowledged StepAcknowledged::read(const Event& event)
{
  return event_from<StepAcknowledged>(event);
}

json StepLocated::payload() const
{
  return payload_from(*this);
}

StepLocated StepLocated::read(const Event& event)
{
  return event_from<StepLocated>(event);
}

json JournalPurged::payload() const
{
  return payload_from(*this);
}

JournalPurged JournalPurged::read(const Event& event)
{
  return event_from<JournalPurged>(event);
}

json NumbersClaimed::payload() const
{
  return payload_from(*this);
}

NumbersClaimed NumbersClaimed::read(const Event& event)
{
  return event_from<NumbersClaimed>(event);
}

json ComparisonInterleaved::payload() const
{
  return payload_from(*this);
}

ComparisonInterleaved ComparisonInterleaved::read(const Event& event)
{
  return event_from<ComparisonInterleaved>(event);
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
