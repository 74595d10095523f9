#include "measure/metric_spec.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::measure;

namespace {

std::string usage_error_of(std::string_view text)
{
  try {
    parse_metric_spec(text);
  } catch (const ej::UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("the documented metric examples parse into name, kind and argument")
{
  const auto tok = parse_metric_spec("tok_s=kv:Output token throughput (tok/s)");
  CHECK(tok.name == "tok_s");
  CHECK(tok.kind == ExtractorKind::Kv);
  CHECK(tok.arg == "Output token throughput (tok/s)");
  CHECK(tok.file.empty());
  CHECK_FALSE(tok.from_stderr);

  const auto verify = parse_metric_spec("verify_ms=regex:verify: ([0-9.]+) ms");
  CHECK(verify.kind == ExtractorKind::Regex);
  CHECK(verify.arg == "verify: ([0-9.]+) ms");

  const auto sum = parse_metric_spec("sum_ns=gbench:BM_Sum");
  CHECK(sum.kind == ExtractorKind::Gbench);
  CHECK(sum.arg == "BM_Sum");

  const auto gpu = parse_metric_spec("gpu_s=nvbench:copy_sweep");
  CHECK(gpu.kind == ExtractorKind::Nvbench);
  CHECK(gpu.arg == "copy_sweep");

  const auto t = parse_metric_spec("t=hyperfine");
  CHECK(t.kind == ExtractorKind::Hyperfine);
  CHECK(t.arg.empty());
}

TEST_CASE("an argument ending in @FILE reads that file instead of stdout")
{
  const auto nv = parse_metric_spec("gpu_s=nvbench:copy_sweep/nv/cold/time/gpu/mean@out/nv.json");
  CHECK(nv.arg == "copy_sweep/nv/cold/time/gpu/mean");
  CHECK(nv.file == "out/nv.json");

  const auto hf = parse_metric_spec("t=hyperfine:@h.json");
  CHECK(hf.arg.empty());
  CHECK(hf.file == "h.json");

  CHECK(parse_metric_spec("t=hyperfine@h.json").file == "h.json");
  CHECK(parse_metric_spec("m=json:/results/0/mean@r.json").arg == "/results/0/mean");
}

TEST_CASE("KIND#FIELD leaves out the ':' as KIND@FILE does, as pytest[:FULLNAME][#FIELD] reads")
{
  const auto median = parse_metric_spec("m=pytest#median");
  CHECK(median.kind == ExtractorKind::Pytest);
  CHECK(median.arg == "#median");
  CHECK(to_spec_string(median) == "m=pytest:#median");
  const auto cpu = parse_metric_spec("t=gbench#cpu_time@gb.json");
  CHECK(cpu.kind == ExtractorKind::Gbench);
  CHECK(cpu.arg == "#cpu_time");
  CHECK(cpu.file == "gb.json");
  CHECK(parse_metric_spec("q=criterion#median").arg == "#median");
}

TEST_CASE("a quoted @FILE may hold spaces, '@' and globs, unquoted globs are files except after a regex")
{
  const auto criterion =
      parse_metric_spec("q=criterion:#median@\"target/criterion/fib 20/new/estimates.json\"");
  CHECK(criterion.arg == "#median");
  CHECK(criterion.file == "target/criterion/fib 20/new/estimates.json");
  CHECK(parse_metric_spec("q=json:x@'a@b c.json'").file == "a@b c.json");
  CHECK(parse_metric_spec("q=json:x@'a@b c.json'").arg == "x");

  const auto vllm = parse_metric_spec("ttft=json:mean_ttft_ms@results/vllm-*.json");
  CHECK(vllm.arg == "mean_ttft_ms");
  CHECK(vllm.file == "results/vllm-*.json");
  // After a regex, '*' and '?' are the pattern's: a glob there is quoted.
  CHECK(parse_metric_spec("m=regex:user ([0-9]+)@host.*").file.empty());
  CHECK(parse_metric_spec("m=regex:user ([0-9]+)@host.*").arg == "user ([0-9]+)@host.*");
  const auto quoted = parse_metric_spec("m=regex:took ([0-9]+)@\"logs/*.log\"");
  CHECK(quoted.file == "logs/*.log");
  CHECK(quoted.arg == "took ([0-9]+)");
  // A quote that does not close right after '@' stays in the pattern.
  CHECK(parse_metric_spec("m=regex:name=\"([0-9]+)\"").file.empty());
}

TEST_CASE("an '@' that cannot start a path, or is escaped, stays in the pattern")
{
  const auto spaced = parse_metric_spec("m=regex:rate @ ([0-9]+) Hz");
  CHECK(spaced.arg == "rate @ ([0-9]+) Hz");
  CHECK(spaced.file.empty());

  const auto escaped = parse_metric_spec("m=kv:mem\\@gpu0");
  CHECK(escaped.arg == "mem@gpu0");
  CHECK(escaped.file.empty());
}

TEST_CASE("stderr: and stdout: prefixes choose the stream")
{
  const auto err = parse_metric_spec("m=regex:stderr:took ([0-9]+) ms");
  CHECK(err.from_stderr);
  CHECK(err.arg == "took ([0-9]+) ms");
  const auto out = parse_metric_spec("m=kv:stdout:stderr: lines");
  CHECK_FALSE(out.from_stderr);
  CHECK(out.arg == "stderr: lines");
  // perf stat counts no event called stderr: without an EVENT, the stream is meant.
  for (const auto* text : {"p=perf-stat:stderr", "p=perf-stat:stderr:"}) {
    const auto perf = parse_metric_spec(text);
    CHECK(perf.from_stderr);
    CHECK(perf.arg.empty());
  }
  const auto perf_out = parse_metric_spec("p=perf-stat:stdout");
  CHECK_FALSE(perf_out.from_stderr);
  CHECK(perf_out.arg.empty());
  CHECK(parse_metric_spec("p=perf-stat:stderr:cycles").arg == "cycles");
  CHECK(parse_metric_spec("m=kv:stderr").arg == "stderr"); // a key may be the word
}

TEST_CASE("malformed specs are rejected with the reason")
{
  CHECK_THAT(usage_error_of("no_equals_sign"), Catch::Contains("NAME=KIND"));
  CHECK_THAT(usage_error_of("m=csv:x"), Catch::Contains("unknown extractor kind 'csv'"));
  CHECK_THAT(usage_error_of("m=csv:x"), Catch::Contains("hyperfine"));
  CHECK_THAT(usage_error_of("9lives=kv:x"), Catch::Contains("not valid"));
  CHECK_THAT(usage_error_of("=kv:x"), Catch::Contains("not valid"));
  CHECK_THAT(usage_error_of("m=kv"), Catch::Contains("key"));
  CHECK_THAT(usage_error_of("m=regex"), Catch::Contains("capture group"));
  CHECK_THAT(usage_error_of("m=regex:stderr:x ([0-9]+)@out.txt"), Catch::Contains("both stderr"));
  CHECK_THAT(usage_error_of("m=json:/a/~2"), Catch::Contains("JSON Pointer"));
  CHECK_THAT(usage_error_of("m=json:a..b"), Catch::Contains("empty step"));
  CHECK_THAT(usage_error_of("m=gbench:BM_X#"), Catch::Contains("field"));
}

TEST_CASE("a regex must compile and have exactly one capture group")
{
  CHECK_THAT(usage_error_of("m=regex:([0-9]+"), Catch::Contains("does not compile"));
  CHECK_THAT(usage_error_of("m=regex:[0-9]+ ms"), Catch::Contains("0 capture groups"));
  CHECK_THAT(usage_error_of("m=regex:(a)|([0-9]+)"), Catch::Contains("2 capture groups"));
  CHECK_NOTHROW(parse_metric_spec("m=regex:(?:a|b) ([0-9]+)"));
}

TEST_CASE("the --unit and --better options change the named metric and reject unknown names or values")
{
  std::vector<MetricSpec> specs{parse_metric_spec("tok_s=kv:Output token throughput (tok/s)"),
                                parse_metric_spec("t=hyperfine")};
  apply_unit_option(specs, "tok_s=tok/s");
  apply_better_option(specs, "tok_s=higher");
  apply_unit_option(specs, "t=ms");
  CHECK(specs[0].unit == "tok/s");
  CHECK(specs[0].better == Direction::HigherIsBetter);
  CHECK(specs[1].unit == "ms");
  CHECK(specs[1].better == Direction::LowerIsBetter);

  CHECK_THROWS_WITH(apply_unit_option(specs, "nope=ms"), Catch::Contains("no --metric defines"));
  CHECK_THROWS_WITH(apply_better_option(specs, "tok_s=faster"),
                    Catch::Contains("neither 'higher' nor 'lower'"));
  CHECK_THROWS_AS(apply_better_option(specs, "tok_s"), ej::UsageError);
  // hyperfine times convert to other times only
  CHECK_THROWS_WITH(apply_unit_option(specs, "t=tok/s"),
                    Catch::Contains("metric 't' reads a time in 's'") && Catch::Contains("ns, us, ms, s"));
  CHECK_THROWS_WITH(apply_unit_option(specs, "t=widgets"),
                    Catch::Contains("does not know the unit 'widgets'"));
  CHECK_THROWS_WITH(apply_unit_option(specs, "tok_s=ms"), Catch::Contains("'tok/s'"));
  CHECK(specs[1].unit == "ms");
}

TEST_CASE("a --unit is stored in ej's spelling, and labels what has no known unit")
{
  std::vector<MetricSpec> specs{parse_metric_spec("lat=kv:latency"), parse_metric_spec("x=kv:x")};
  apply_unit_option(specs, "lat=usec");
  CHECK(specs[0].unit == "us");
  apply_unit_option(specs, "x=widgets"); // nothing to convert from: a label
  CHECK(specs[1].unit == "widgets");
}

TEST_CASE("JSONPath is refused when the metric is defined, with the syntax to write instead")
{
  CHECK_THAT(usage_error_of("m=json:$.x"), Catch::Contains("JSONPath") && Catch::Contains("/results/0/mean"));
  CHECK_THAT(usage_error_of("m=json:results[0].mean"), Catch::Contains("results.0.mean"));
  CHECK_THAT(usage_error_of("m=json:results.*.mean"), Catch::Contains("JSONPath"));
}

TEST_CASE("the effective unit says the extractor's default when none was given")
{
  CHECK(effective_unit(parse_metric_spec("a=gbench:BM_Sum")) == "ns");
  CHECK(effective_unit(parse_metric_spec("a=gbench:BM_Sum#items_per_second")) == "items/s");
  CHECK(effective_unit(parse_metric_spec("a=gbench:BM_Sum#widgets")) == "");
  CHECK(effective_unit(parse_metric_spec("a=kv:Median TTFT (ms)")) == "ms");
  CHECK(effective_unit(parse_metric_spec("a=json:/results/0/p99_itl_ms")) == "ms");
  CHECK(effective_unit(parse_metric_spec("a=hyperfine")) == "s");
  CHECK(effective_unit(parse_metric_spec("a=nvbench:copy")) == "s");
  // a relative stdev is a percentage, as nvbench's "percentage" hint says (0.012 is 1.2%)
  CHECK(effective_unit(parse_metric_spec("a=nvbench:copy/nv/cold/time/gpu/stdev/relative")) == "%");
  CHECK(effective_unit(parse_metric_spec("a=nvbench:copy/nv/cold/bw/global/bytes_per_second")) == "B/s");
  CHECK(effective_unit(parse_metric_spec("a=kv:x")) == "");
  auto spec = parse_metric_spec("a=gbench:BM_Sum");
  spec.unit = "us";
  CHECK(effective_unit(spec) == "us");
}

TEST_CASE("to_spec_string round-trips through parse_metric_spec")
{
  const std::vector<std::string> texts{
      "tok_s=kv:Output token throughput (tok/s)",
      "verify_ms=regex:verify: ([0-9.]+) ms",
      "sum_ns=gbench:BM_Sum",
      "gpu_s=nvbench:copy_sweep",
      "t=hyperfine",
      "t=hyperfine:@h.json",
      "e=regex:stderr:took ([0-9]+) ms",
      "f=kv:stdout:stderr: lines",
      "g=kv:mem\\@gpu0",
      "h=json:a@b:@c.json",
      "i=regex:x@ ([0-9]+)",
      "j=criterion:#mean@\"target/criterion/fib 20/new/estimates.json\"",
      "k=json:mean_ttft_ms@results/vllm-*.json",
      "l=regex:ttft ([0-9.]+)@\"logs/run-*.log\"",
      "m=json:x@'it said \"hi\".json'",
      "n=perf-stat:stderr",
      "o=perf-stat:stdout",
  };
  for (const auto& text : texts) {
    const auto spec = parse_metric_spec(text);
    INFO(text << " -> " << to_spec_string(spec));
    CHECK(parse_metric_spec(to_spec_string(spec)) == spec);
  }
  CHECK(to_spec_string(parse_metric_spec("t=hyperfine")) == "t=hyperfine");
  CHECK(to_spec_string(parse_metric_spec("t=hyperfine@h.json")) == "t=hyperfine:@h.json");
}

TEST_CASE("a spec survives a trip through JSON, and damaged JSON is refused")
{
  auto spec = parse_metric_spec("e=regex:stderr:took ([0-9]+) ms");
  spec.unit = "ms";
  spec.better = Direction::LowerIsBetter;
  const auto json = to_json(spec);
  CHECK(json.at("stream") == "stderr");
  CHECK(json.at("kind") == "regex");
  CHECK(checked_stored_spec(ej::core::metric_spec_from_json(json)) == spec);

  auto bad_kind = json;
  bad_kind["kind"] = "csv";
  CHECK_THROWS_AS(checked_stored_spec(ej::core::metric_spec_from_json(bad_kind)), ej::Error);
  auto bad_regex = json;
  bad_regex["arg"] = "no group";
  CHECK_THROWS_WITH(checked_stored_spec(ej::core::metric_spec_from_json(bad_regex)),
                    Catch::Contains("not valid"));
  CHECK_THROWS_AS(checked_stored_spec(ej::core::metric_spec_from_json(nlohmann::json::array())), ej::Error);
  try {
    checked_stored_spec(ej::core::metric_spec_from_json(bad_regex));
  } catch (const ej::UsageError&) {
    FAIL("damaged storage is not a usage error");
  } catch (const ej::Error&) {
  }
}

TEST_CASE("an unquoted @FILE with blanks is refused with the quoting to use, unless that file exists")
{
  // Before, "results@my run.json" became the JSON path, and the run then said stdout was empty.
  const auto blanked = find_file_with_blanks("r=json:mean@my run.json");
  REQUIRE(blanked);
  CHECK(blanked->file == "my run.json");
  CHECK(blanked->quoted == "r=json:mean@\"my run.json\"");
  CHECK(find_file_with_blanks("r=hyperfine@h 1.json")->quoted == "r=hyperfine@\"h 1.json\"");
  // An '@' before a blank, inside a pattern, escaped, or quoted is no file with blanks.
  CHECK_FALSE(find_file_with_blanks("m=kv:Throughput @ 4 GPUs"));
  CHECK_FALSE(find_file_with_blanks("m=regex:rate @ ([0-9]+) Hz"));
  CHECK_FALSE(find_file_with_blanks("m=regex:user@host took ([0-9]+) ms"));
  CHECK_FALSE(find_file_with_blanks("m=kv:mem\\@gpu 0"));
  CHECK_FALSE(find_file_with_blanks("q=criterion:#median@\"target/criterion/fib 20/new/estimates.json\""));
  CHECK_FALSE(find_file_with_blanks("r=json:mean@run.json"));

  ej::test::TempDir dir;
  std::string message;
  try {
    parse_metric_option("r=json:mean@my run.json", dir.path());
  } catch (const ej::UsageError& error) {
    message = error.what();
  }
  CHECK_THAT(message, Catch::Contains("metric 'r'") && Catch::Contains("'@my run.json'") &&
                          Catch::Contains("--metric 'r=json:mean@\"my run.json\"'") &&
                          Catch::Contains("\\@"));
  // Readers that check their argument when the spec is parsed say the same, not that the argument
  // (read with the path in it) names no estimate or field.
  for (const std::string text :
       {"c=criterion#median@t/fib 20/e.json", "c=catch2#mean@t/fib 20/e.json",
        "c=gbench-console#cpu_time@t/fib 20/e.txt", "c=sglang-one-batch:decode_throughput@t/fib 20/e.txt",
        "c=nccl:busbw@t/fib 20/e.txt"}) {
    INFO(text);
    std::string refused;
    try {
      parse_metric_option(text, dir.path());
    } catch (const ej::UsageError& error) {
      refused = error.what();
    }
    CHECK_THAT(refused,
               Catch::Contains("the path after '@' holds blanks") && Catch::Contains("quote the path"));
  }
  ej::test::write_text(dir / "my run.json", "{}");
  const auto spec = parse_metric_option("r=json:mean@my run.json", dir.path());
  CHECK(spec.arg == "mean");
  CHECK(spec.file == "my run.json");
  CHECK(parse_metric_option("m=kv:Throughput @ 4 GPUs", dir.path()).arg == "Throughput @ 4 GPUs");
}
