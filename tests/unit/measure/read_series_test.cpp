// Records, blocks and rows as series: ';per=' keys each value by a field of its record or block.
#include "extract_helpers.h"
#include "measure/extract.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::measure;
using ej::measure::test::extract_text;

TEST_CASE("json on SGLang's --output-file JSONL reads the last record, or one series per request_rate")
{
  const auto text = ej::test::read_fixture("sglang_bench_serving_online.jsonl");
  const auto last = extract_text("tput=json:output_throughput", text);
  REQUIRE(last.size() == 1);
  const auto per = extract_text("ttft=json:median_ttft_ms;per=request_rate", text);
  REQUIRE(per.size() == 7);
  CHECK(per[0].key == "request_rate=1.0");
  CHECK(per[0].value == Approx(85.74514742940664));
  CHECK(per[0].unit == "ms"); // from the key
  CHECK(per[1].key == "request_rate=2.0");
  CHECK(per[2].key == "request_rate=4.0");
  CHECK(last[0].value == extract_text("t=json:output_throughput;per=request_rate", text).back().value);
}

TEST_CASE("json with ,per= reads records whose key is Infinity, and vLLM's saved results keyed by rate")
{
  const auto inf = extract_text("tput=json:output_throughput;per=request_rate",
                                ej::test::read_fixture("sglang_bench_serving_offline_inf.jsonl"));
  REQUIRE(inf.size() == 7);
  CHECK(inf[0].key == "request_rate=Infinity");
  CHECK(inf[0].value == Approx(4520.698730654741));

  const auto vllm = extract_text("p99=json:p99_itl_ms;per=request_rate",
                                 ej::test::read_fixture("vllm_benchmark_serving_results.jsonl"));
  REQUIRE(vllm.size() == 9);
  CHECK(vllm[0].key == "request_rate=10.0");
  CHECK(vllm[0].value == Approx(34.48662216016601));
  CHECK(vllm[0].unit == "ms");
  bool saw_inf = false;
  for (const auto& value : vllm) {
    saw_inf = saw_inf || value.key == "request_rate=inf";
  }
  CHECK(saw_inf); // a string "inf" as written
}

TEST_CASE("json with ,per= names the record that lacks the field, and a record cut short")
{
  const std::string text = "{\"rate\": 1, \"t\": 5}\n{\"t\": 6}\n";
  CHECK_THROWS_WITH(extract_text("t=json:t;per=rate", text), Catch::Contains("metric 't'") &&
                                                                 Catch::Contains("of record 2") &&
                                                                 Catch::Contains("'rate'"));
  CHECK_THROWS_WITH(extract_text("t=json:t;per=rate", "{\"rate\": 1, \"t\": 5}\n{\"rate\": 2, \"t\""),
                    Catch::Contains("record on line 2 of stdout is not valid JSON"));
  CHECK_THROWS_AS(parse_metric_spec("t=json:t;per="), ej::UsageError);
  CHECK_THROWS_AS(parse_metric_spec("t=json:t;per=$.rate"), ej::UsageError);
}

TEST_CASE("kv with ,per= keys every SGLang 'Serving Benchmark Result' block by its request rate")
{
  const auto text = ej::test::read_fixture("sglang_bench_serving_console_qps1.txt") + "\n" +
                    ej::test::read_fixture("sglang_bench_serving_console_qps4.txt") + "\n" +
                    ej::test::read_fixture("sglang_bench_serving_console_qps8.txt");
  const auto values = extract_text("tok_s=kv:Output token throughput (tok/s);per=Traffic request rate", text);
  REQUIRE(values.size() == 6); // two runs per file
  CHECK(values[0].key == "Traffic request rate=1.0");
  CHECK(values[2].key == "Traffic request rate=4.0");
  CHECK(values[2].value == 500.61);
  CHECK(values[3].value == 528.54);
  CHECK(values[2].unit == "tok/s");
  CHECK(values[4].key == "Traffic request rate=8.0");
  CHECK_THROWS_WITH(extract_text("t=kv:Median TTFT (ms);per=Request rate", text),
                    Catch::Contains("before any 'Request rate' line"));
}

TEST_CASE("kv reads vLLM's bench serve console summary, units from the keys")
{
  auto spec = parse_metric_spec("tpot=kv:Median TPOT (ms)");
  spec.unit = "us";
  const auto values = extract_text(spec, ej::test::read_fixture("vllm_bench_serve_console_docs.txt"));
  REQUIRE(values.size() == 1);
  CHECK(values[0].value == Approx(7960));
  CHECK(extract_text("r=kv:Request throughput (req/s)",
                     ej::test::read_fixture("vllm_bench_serve_console_docs.txt"))[0]
            .unit == "req/s");
}
