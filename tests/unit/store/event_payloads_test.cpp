// The JSON of every event type, to the byte: payloads travel between replicas and versions of ej
// (docs/events.md), so what a builder writes may never change by accident, and what a reader reads
// back must write the same bytes again.
#include "store/events.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <limits>

using namespace ej;
using nlohmann::json;
namespace events = store::events;

namespace {

// One event of each type, every field set: its payload, and the payload of what its reader reads.
struct PayloadCase {
  std::string_view type;
  json payload;
  std::function<json(const store::Event&)> read_back;
};

template <typename Type> PayloadCase payload_case(std::string_view type, const Type& value)
{
  return {type, value.payload(), [](const store::Event& event) { return Type::read(event).payload(); }};
}

store::Event event_of(std::string_view type, json payload)
{
  store::Event event;
  event.type = std::string(type);
  event.payload = std::move(payload);
  return event;
}

const std::string k_id1 = "01JD0000000000000000000001";
const std::string k_id2 = "01JD0000000000000000000002";

core::GitContext code_state()
{
  core::GitContext git;
  git.commit = std::string(40, 'a');
  git.branch = "main";
  git.dirty = true;
  git.diff_blob = "d1ff";
  git.large_untracked = {{"big.bin", 2097159, "ff00", "", false}, {"run.sh", 3000000, "aa11", "aa11", true}};
  return git;
}

events::Repeat full_repeat()
{
  events::Repeat repeat;
  repeat.index = 3;
  repeat.params = {{"batch", 8}};
  repeat.warmup = true;
  repeat.ending = core::RepeatEnding::TimedOut;
  repeat.exit_code = 2;
  repeat.signal = 9;
  repeat.wall_s = 1.5;
  repeat.user_s = 1.25;
  repeat.sys_s = 0.125;
  repeat.max_rss_kb = 4096;
  repeat.samples = {{"time_ms", "", 11.5, "ms", core::SampleKind::Sample},
                    {"bw", "1MiB", 40, "GB/s", core::SampleKind::Aggregate}};
  core::GpuRepeatState gpu;
  gpu.index = 1;
  gpu.uuid = "GPU-1";
  gpu.samples = 12;
  gpu.sm_clock_mhz = core::Range{1400, 1800, 1980};
  gpu.power_w = core::Range{100, 250, 300};
  gpu.temperature_max_c = 71;
  gpu.reasons = {"hw_slowdown"};
  gpu.lost = true;
  core::GpuRepeatState quiet;
  quiet.uuid = "GPU-0";
  repeat.device = {gpu, quiet};
  return repeat;
}

std::vector<PayloadCase> every_event()
{
  std::vector<PayloadCase> cases;
  cases.push_back(payload_case(events::PlanCreated::type, events::PlanCreated{"p",
                                                                              "Plan",
                                                                              "faster",
                                                                              "verify_ms < 15",
                                                                              "journal/p.md",
                                                                              {"verify:verify_ms < 15"},
                                                                              {"serve:tok_s@c=1"},
                                                                              "c=1"}));
  cases.push_back(payload_case(events::PlanCreated::type, events::PlanCreated{"p", "", "", "", ""}));
  cases.push_back(
      payload_case(events::PlanEdited::type,
                   events::PlanEdited{"p", "T", "G", "", "d.md", std::vector<std::string>{"a < 1"},
                                      std::vector<std::string>{}, "c=2"}));
  events::PlanEdited bare_edit;
  bare_edit.slug = "p";
  cases.push_back(payload_case(events::PlanEdited::type, bare_edit));

  events::AttemptCreated created;
  created.number = 7;
  created.plan = "p";
  created.title = "fused allreduce";
  created.hypothesis = "fewer launches";
  created.command = "make run";
  created.tags = {"nccl", "gpu"};
  created.links = {{"supersedes", events::Ref::to(k_id1)}, {"retry-of", events::Ref{"", 4}}};
  created.git = code_state();
  cases.push_back(payload_case(events::AttemptCreated::type, created));
  cases.push_back(payload_case(events::AttemptCreated::type, events::AttemptCreated{}));

  cases.push_back(
      payload_case(events::AttemptStatus::type,
                   events::AttemptStatus{events::Ref::to(k_id1), "rejected", "slower", code_state()}));
  cases.push_back(
      payload_case(events::AttemptNote::type, events::AttemptNote{events::Ref{"", 12}, "a note"}));
  cases.push_back(
      payload_case(events::AttemptEdited::type,
                   events::AttemptEdited{events::Ref::to(k_id1), "t", "h", "", {"a"}, {"b", "c"}}));
  events::AttemptEdited bare_attempt_edit;
  bare_attempt_edit.attempt = events::Ref::to(k_id1);
  cases.push_back(payload_case(events::AttemptEdited::type, bare_attempt_edit));
  cases.push_back(payload_case(events::AttemptLinked::type,
                               events::AttemptLinked{events::Ref::to(k_id1),
                                                     {{"blocked-by", events::Ref::to(k_id2)}},
                                                     {{"retry-of", events::Ref{"", 3}}}}));

  const json definition = {{"argv", {"./bench", "--fast"}}, {"repeat", 5}};
  cases.push_back(
      payload_case(events::BenchRevision::added_type, events::BenchRevision{false, "b", 1, definition}));
  cases.push_back(
      payload_case(events::BenchRevision::edited_type, events::BenchRevision{true, "b", 2, definition}));
  cases.push_back(
      payload_case(events::ProbeAdded::type, events::ProbeAdded{"clocks", {{"argv", {"nvidia-smi"}}}}));
  cases.push_back(payload_case(events::ProbeRemoved::type, events::ProbeRemoved{"clocks"}));

  events::RunStarted started;
  started.number = 14;
  started.bench = "b";
  started.revision = 2;
  started.bench_revision = events::Ref::to(k_id1);
  started.attempt = events::Ref::to(k_id2);
  started.label = "try";
  started.params = {{"batch", {1, 8}}};
  started.git = code_state();
  started.env_blob = "e0";
  started.env_readings = {{"governor", "performance"}};
  started.host = "box";
  started.pid = 4242;
  started.pid_start_ticks = 99;
  started.boot_id = "boot";
  started.on = {{"name", "gpu1"}, {"target", "me@gpu1"}};
  started.env = {{"FACTOR", "7"}, {"API_TOKEN", "<redacted>"}};
  cases.push_back(payload_case(events::RunStarted::type, started));
  cases.push_back(payload_case(events::RunStarted::type, events::RunStarted{}));

  events::RunRepeats repeats;
  repeats.run = events::Ref::to(k_id1);
  repeats.repeats = {full_repeat(), events::Repeat{}};
  cases.push_back(payload_case(events::RunRepeats::type, repeats));

  events::RunSamples samples;
  samples.run = events::Ref{"", 5};
  samples.index = 2;
  samples.first = 100;
  samples.labels = {{"t", "", "ms", core::SampleKind::Sample}, {"t", "k", "s", core::SampleKind::Skipped}};
  samples.label_of = {0, 1, 0};
  samples.values = {1.5, 2, 3.25};
  cases.push_back(payload_case(events::RunSamples::type, samples));
  cases.push_back(payload_case(events::RunSamples::type, events::RunSamples{}));

  cases.push_back(payload_case(events::RunFinished::type,
                               events::RunFinished{events::Ref::to(k_id1),
                                                   core::RunStatus::Timeout,
                                                   "too slow",
                                                   {{"stdout_bytes", 12}, {"stdout_blob", "b10b"}}}));

  events::RunImported imported;
  imported.number = 9;
  imported.bench = "b";
  imported.revision = 1;
  imported.bench_revision = events::Ref::to(k_id1);
  imported.attempt = events::Ref{"", 2};
  imported.source = "ci";
  imported.label = "nightly";
  imported.when_ms = 1700000000000;
  imported.params = {{"n", 1}};
  imported.samples = {{"time_ms", "", 11.5, "ms", core::SampleKind::Sample}};
  cases.push_back(payload_case(events::RunImported::type, imported));
  cases.push_back(payload_case(events::RunImported::type, events::RunImported{}));

  cases.push_back(payload_case(events::RunWithdrawal::withdrawn_type,
                               events::RunWithdrawal{false, events::Ref::to(k_id1), "noisy"}));
  cases.push_back(payload_case(events::RunWithdrawal::restored_type,
                               events::RunWithdrawal{true, events::Ref{"", 3}, "fine"}));
  cases.push_back(payload_case(events::BaselinePinned::type,
                               events::BaselinePinned{"p", "b", events::Ref::to(k_id1), "CUDA 13"}));
  cases.push_back(
      payload_case(events::BaselineExplained::type, events::BaselineExplained{"p", "b", k_id2, "why"}));
  cases.push_back(payload_case(events::StepAcknowledged::type,
                               events::StepAcknowledged{"b", "tok_s", std::string(40, 'c'), "expected"}));
  cases.push_back(payload_case(events::StepAcknowledged::type,
                               events::StepAcknowledged{"b", "", std::string(40, 'c'), "expected"}));

  events::StepLocated located;
  located.bench = "decode";
  located.metric = "tok_s";
  located.params = "batch=1";
  located.good = std::string(40, 'a');
  located.bad = std::string(40, 'b');
  located.first_bad = std::string(40, 'b');
  located.candidates = {std::string(40, 'c'), located.bad};
  located.skipped = {{std::string(40, 'c'), "its build failed (run #3)"}};
  located.min_effect_pct = 12.5;
  located.candidate = events::Ref::to(k_id1);
  located.reference = events::Ref::to(k_id2);
  located.log_ratio = false;
  located.estimate = -4;
  located.low = -std::numeric_limits<double>::infinity();
  located.high = -1;
  located.unit = "tok/s";
  cases.push_back(payload_case(events::StepLocated::type, located));
  cases.push_back(payload_case(events::StepLocated::type, events::StepLocated{}));

  cases.push_back(payload_case(events::JournalPurged::type, events::JournalPurged{3, 1}));
  cases.push_back(
      payload_case(events::NumbersClaimed::type, events::NumbersClaimed{"runs", 40, {k_id1, k_id2}}));

  events::ComparisonInterleaved comparison;
  comparison.candidate = events::Ref::to(k_id1);
  comparison.reference = events::Ref::to(k_id2);
  comparison.reference_name = "baseline";
  comparison.seed = "12345678901234567890";
  comparison.block = 2;
  comparison.warmup = 1;
  comparison.max_rounds = 40;
  comparison.alpha = 0.01;
  comparison.stopped = core::SessionStop::Decisive;
  comparison.purpose = "calibration";
  comparison.metric = "tok_s";
  comparison.min_effect_pct = 5;
  comparison.rounds = {{"{}", true, 0, 2, 1, 3}, {"{}", false, 2, 4, 3, 5}};
  cases.push_back(payload_case(events::ComparisonInterleaved::type, comparison));
  cases.push_back(payload_case(events::ComparisonInterleaved::type, events::ComparisonInterleaved{}));
  return cases;
}

// What ej wrote before the payloads were built from one list of fields per type.
const std::vector<std::string> k_expected = {
    R"json({"doc":"journal/p.md","goal":"faster","headline":"c=1","measures":["serve:tok_s@c=1"],"slug":"p","target":"verify_ms < 15","targets":["verify:verify_ms < 15"],"title":"Plan"})json",
    R"json({"doc":"","goal":"","slug":"p","target":"","title":""})json",
    R"json({"doc":"d.md","goal":"G","headline":"c=2","measures":[],"slug":"p","target":"","targets":["a < 1"],"title":"T"})json",
    R"json({"slug":"p"})json",
    R"json({"attempt":7,"command":"make run","git":{"branch":"main","commit":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","diff_blob":"d1ff","dirty":true,"large_untracked":[{"path":"big.bin","sha256":"ff00","size":2097159},{"content_blob":"aa11","executable":true,"path":"run.sh","sha256":"aa11","size":3000000}]},"hypothesis":"fewer launches","links":[{"kind":"supersedes","to":"01JD0000000000000000000001"},{"kind":"retry-of","to":4}],"plan":"p","tags":["nccl","gpu"],"title":"fused allreduce"})json",
    R"json({"attempt":0,"command":"","git":{"branch":"","commit":"","diff_blob":"","dirty":false},"hypothesis":"","links":[],"plan":"","tags":[],"title":""})json",
    R"json({"attempt":"01JD0000000000000000000001","git":{"branch":"main","commit":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","diff_blob":"d1ff","dirty":true,"large_untracked":[{"path":"big.bin","sha256":"ff00","size":2097159},{"content_blob":"aa11","executable":true,"path":"run.sh","sha256":"aa11","size":3000000}]},"reason":"slower","status":"rejected"})json",
    R"json({"attempt":12,"text":"a note"})json",
    R"json({"add_tags":["a"],"attempt":"01JD0000000000000000000001","command":"","hypothesis":"h","remove_tags":["b","c"],"title":"t"})json",
    R"json({"attempt":"01JD0000000000000000000001"})json",
    R"json({"add":[{"kind":"blocked-by","to":"01JD0000000000000000000002"}],"attempt":"01JD0000000000000000000001","remove":[{"kind":"retry-of","to":3}]})json",
    R"json({"definition":{"argv":["./bench","--fast"],"repeat":5},"name":"b","revision":1})json",
    R"json({"definition":{"argv":["./bench","--fast"],"repeat":5},"name":"b","revision":2})json",
    R"json({"definition":{"argv":["nvidia-smi"]},"name":"clocks"})json",
    R"json({"name":"clocks"})json",
    R"json({"attempt":"01JD0000000000000000000002","bench":"b","bench_revision":"01JD0000000000000000000001","boot_id":"boot","env":[["FACTOR","7"],["API_TOKEN","<redacted>"]],"env_blob":"e0","env_readings":{"governor":"performance"},"git":{"branch":"main","commit":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","diff_blob":"d1ff","dirty":true,"large_untracked":[{"path":"big.bin","sha256":"ff00","size":2097159},{"content_blob":"aa11","executable":true,"path":"run.sh","sha256":"aa11","size":3000000}]},"host":"box","label":"try","on":{"name":"gpu1","target":"me@gpu1"},"params":{"batch":[1,8]},"pid":4242,"pid_start_ticks":99,"revision":2,"run":14})json",
    R"json({"attempt":null,"bench":"","bench_revision":null,"boot_id":"","env_blob":"","env_readings":{},"git":{"branch":"","commit":"","diff_blob":"","dirty":false},"host":"","label":"","params":{},"pid":0,"pid_start_ticks":0,"revision":0,"run":0})json",
    R"json({"repeats":[{"device":[{"gpu":1,"lost":true,"memory_clock_mhz":null,"power_w":{"max":300.0,"median":250.0,"min":100.0},"reasons":["hw_slowdown"],"samples":12,"sm_clock_mhz":{"max":1980.0,"median":1800.0,"min":1400.0},"temperature_max_c":71.0,"utilization_max_pct":null,"uuid":"GPU-1"},{"gpu":0,"memory_clock_mhz":null,"power_w":null,"reasons":[],"samples":0,"sm_clock_mhz":null,"temperature_max_c":null,"utilization_max_pct":null,"uuid":"GPU-0"}],"ending":"timed-out","exit_code":2,"idx":3,"max_rss_kb":4096,"params":{"batch":8},"samples":[{"key":"","metric":"time_ms","unit":"ms","value":11.5},{"key":"1MiB","kind":"aggregate","metric":"bw","unit":"GB/s","value":40.0}],"signal":9,"sys_s":0.125,"user_s":1.25,"wall_s":1.5,"warmup":true},{"ending":"exited","exit_code":0,"idx":0,"max_rss_kb":0,"params":{},"samples":[],"signal":0,"sys_s":0.0,"user_s":0.0,"wall_s":0.0,"warmup":false}],"run":"01JD0000000000000000000001"})json",
    R"json({"first":100,"idx":2,"label_of":[0,1,0],"labels":[{"key":"","metric":"t","unit":"ms"},{"key":"k","kind":"skipped","metric":"t","unit":"s"}],"run":5,"values":[1.5,2.0,3.25]})json",
    R"json({"first":0,"idx":0,"labels":[],"run":null,"values":[]})json",
    R"json({"outputs":{"stdout_blob":"b10b","stdout_bytes":12},"reason":"too slow","run":"01JD0000000000000000000001","status":"timeout"})json",
    R"json({"attempt":2,"bench":"b","bench_revision":"01JD0000000000000000000001","label":"nightly","params":{"n":1},"revision":1,"run":9,"samples":[{"key":"","metric":"time_ms","unit":"ms","value":11.5}],"source":"ci","when_ms":1700000000000})json",
    R"json({"attempt":null,"bench":"","bench_revision":null,"label":"","params":{},"revision":0,"run":0,"samples":[],"source":""})json",
    R"json({"reason":"noisy","run":"01JD0000000000000000000001"})json",
    R"json({"reason":"fine","run":3})json",
    R"json({"bench":"b","plan":"p","reason":"CUDA 13","run":"01JD0000000000000000000001"})json",
    R"json({"bench":"b","pin":"01JD0000000000000000000002","plan":"p","reason":"why"})json",
    R"json({"bench":"b","commit":"cccccccccccccccccccccccccccccccccccccccc","metric":"tok_s","reason":"expected"})json",
    R"json({"bench":"b","commit":"cccccccccccccccccccccccccccccccccccccccc","reason":"expected"})json",
    R"json({"bad":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","bench":"decode","candidate":"01JD0000000000000000000001","candidates":["cccccccccccccccccccccccccccccccccccccccc","bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"],"estimate":-4.0,"first_bad":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","good":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","high":-1.0,"low":null,"metric":"tok_s","min_effect_pct":12.5,"params":"batch=1","reference":"01JD0000000000000000000002","scale":"difference","skipped":[{"commit":"cccccccccccccccccccccccccccccccccccccccc","why":"its build failed (run #3)"}],"unit":"tok/s"})json",
    R"json({"bad":"","bench":"","candidate":null,"candidates":[],"estimate":0.0,"first_bad":"","good":"","high":0.0,"low":0.0,"metric":"","min_effect_pct":0.0,"reference":null,"scale":"log-ratio","skipped":[],"unit":""})json",
    R"json({"blobs":1,"events":3})json",
    R"json({"first":40,"ids":["01JD0000000000000000000001","01JD0000000000000000000002"],"kind":"runs"})json",
    R"json({"alpha":0.01,"block":2,"candidate":"01JD0000000000000000000001","max_rounds":40,"metric":"tok_s","min_effect_pct":5.0,"purpose":"calibration","reference":"01JD0000000000000000000002","reference_name":"baseline","rounds":[{"candidate":[0,2],"order":"rc","params":"{}","reference":[1,3]},{"candidate":[2,4],"order":"cr","params":"{}","reference":[3,5]}],"seed":"12345678901234567890","stopped":"decisive","warmup":1})json",
    R"json({"alpha":0.05,"block":1,"candidate":null,"max_rounds":0,"reference":null,"reference_name":"","rounds":[],"seed":"","stopped":"rounds","warmup":0})json",
};

} // namespace

TEST_CASE("every event type writes the JSON it always wrote, and what it reads writes the same again")
{
  const auto cases = every_event();
  REQUIRE(cases.size() == k_expected.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& one = cases[i];
    INFO(i << ": " << one.type);
    const auto written = one.payload.dump();
    CHECK(written == k_expected[i]);
    CHECK(one.read_back(event_of(one.type, one.payload)).dump() == written);
  }
  // Every type has its case.
  for (const auto type : events::known_types()) {
    INFO(type);
    CHECK(std::any_of(cases.begin(), cases.end(), [&](const PayloadCase& one) { return one.type == type; }));
  }
}
