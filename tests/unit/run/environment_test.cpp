#include "run/environment.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace ej::run;
using nlohmann::json;

TEST_CASE("redaction hides secret values and credentials inside URLs")
{
  CHECK(redact("FOO_TOKEN", "hunter2") == "<redacted>");
  CHECK(redact("NCCL_ALGO", "Tree") == "Tree");
  CHECK(redact("PIP_INDEX_URL", "https://user:hunter2@pypi.example.com/simple") ==
        "https://<redacted>@pypi.example.com/simple");
  CHECK(redact("HUB_URL", "see hf_abcdefghijklmnopqrstuvwxyz0123 there") == "see <redacted> there");
}

TEST_CASE("variables are selected by glob patterns, extra names and overrides")
{
  EnvOptions options;
  options.extra_variables = {"MY_BENCH_SIZE"};
  options.overrides = {{"NCCL_ALGO", "Ring"}, {"MY_API_KEY", "s3cr3t"}};
  const std::vector<std::string> environment = {"NCCL_ALGO=Tree", "CUDA_VISIBLE_DEVICES=0,1",
                                                "HOME=/root",     "MY_BENCH_SIZE=4096",
                                                "NCCL_IB_HCA",    "TORCH_HUB_TOKEN=abc"};
  const json variables = select_variables(environment, options);
  CHECK(variables == json{{"CUDA_VISIBLE_DEVICES", "0,1"},
                          {"MY_API_KEY", "<redacted>"},
                          {"MY_BENCH_SIZE", "4096"},
                          {"NCCL_ALGO", "Ring"},
                          {"TORCH_HUB_TOKEN", "<redacted>"}});
}

TEST_CASE("a probe's output, failure and timeout are recorded")
{
  ProbeSpec ok{"versions", {"printf", "torch==2.9.0\\nnumpy==2.1.0\\n"}, std::nullopt, {}, 5};
  json entry = run_probe(ok);
  CHECK(entry["output"] == "torch==2.9.0\nnumpy==2.1.0\n");
  CHECK(entry["exit_code"] == 0);
  CHECK(entry["error"].is_null());
  CHECK(entry["command"] == "printf torch==2.9.0\\nnumpy==2.1.0\\n");

  ProbeSpec failing{"failing", {}, "echo partial; echo 'no module named torch' >&2; exit 1", {}, 5};
  entry = run_probe(failing);
  CHECK(entry["exit_code"] == 1);
  CHECK(entry["output"] == "partial\n");
  CHECK(entry["error"] == "exited with 1: no module named torch");

  ProbeSpec slow{"slow", {"sleep", "10"}, std::nullopt, {}, 0.3};
  entry = run_probe(slow);
  CHECK(entry["exit_code"].is_null());
  CHECK_THAT(entry["error"].get<std::string>(), Catch::StartsWith("timed out after 0."));

  ProbeSpec missing{"missing", {"ej-no-such-probe"}, std::nullopt, {}, 5};
  entry = run_probe(missing);
  CHECK_THAT(entry["error"].get<std::string>(), Catch::StartsWith("cannot run 'ej-no-such-probe'"));
}

TEST_CASE("a probe's output is bounded")
{
  ProbeSpec chatty{"chatty", {"head", "-c", "100000", "/dev/zero"}, std::nullopt, {}, 5, 1000};
  const json entry = run_probe(chatty);
  CHECK_THAT(entry["output"].get<std::string>(), Catch::Contains("[... 99000 bytes cut ...]"));
  CHECK(entry["output"].get<std::string>().size() < 1100);
}

TEST_CASE("the environment of this machine is captured with its secrets redacted")
{
  ::setenv("FOO_TOKEN", "hunter2", 1);
  ::setenv("NCCL_ALGO", "Tree", 1);
  EnvOptions options;
  options.extra_variables = {"FOO_TOKEN"};
  options.probes = {{"echo-probe", {}, "echo probe-ran", {}, 5}};
  const EnvSnapshot snapshot = capture_environment(options);
  ::unsetenv("FOO_TOKEN");
  ::unsetenv("NCCL_ALGO");

  const json& fp = snapshot.fingerprint;
  const std::string dumped = fp.dump() + snapshot.readings.dump();
  CHECK(dumped.find("hunter2") == std::string::npos);
  CHECK(fp["variables"]["FOO_TOKEN"] == "<redacted>");
  CHECK(fp["variables"]["NCCL_ALGO"] == "Tree");
  CHECK(fp["variables"].contains("PATH"));
  CHECK(fp["schema"] == 1);
  CHECK(fp["host"]["hostname"].is_string());
  CHECK(fp["host"]["kernel"].is_string());
  CHECK(fp["host"]["cpu_count"].get<int>() >= 1);
  CHECK(fp["host"]["memory_kb"].get<long long>() > 0);
  CHECK(fp["probes"]["echo-probe"]["output"] == "probe-ran\n");
  for (const char* part : {"host", "gpu", "toolkit", "variables", "probes"}) {
    CHECK(fp.contains(part));
  }
  CHECK(fp["gpu"]["devices"].is_array());
  CHECK(snapshot.readings["gpus"].is_array());
  if (fp["gpu"]["source"] == "none") {
    CHECK(snapshot.readings["gpus"].empty());
  }
  if (!fp["toolkit"]["nvcc_path"].is_null()) {
    CHECK_THAT(fp["toolkit"]["nvcc"].get<std::string>(), Catch::Contains("release"));
  }
}

TEST_CASE("two captures of the same environment have the same fingerprint id")
{
  EnvOptions options;
  options.variable_patterns = {"PATH"};
  const EnvSnapshot a = capture_environment(options);
  const EnvSnapshot b = capture_environment(options);
  CHECK(fingerprint_id(a) == fingerprint_id(b));
  CHECK(fingerprint_id(a).size() == 64);
}

TEST_CASE("a fact that is missing or unreadable is null in the fingerprint")
{
  EnvFacts facts;
  facts.os_release = "NAME=Debian\nPRETTY_NAME=\"\"\n"; // present but empty
  facts.cpuinfo = "model names: not the key\n";         // only a longer key
  facts.meminfo = "MemTotal: unknown\n";                // no number
  facts.cpus = "many";
  facts.gpus = no_gpu_report("none here");
  facts.nvcc_path = "/opt/nvcc";
  facts.nvcc_version = "nvcc: NVIDIA (R) Cuda compiler driver\n";
  const EnvSnapshot snapshot = build_snapshot(facts, EnvOptions{});

  const json& host = snapshot.fingerprint["host"];
  for (const char* key : {"hostname", "os", "kernel", "arch", "cpu_model", "cpu_count", "memory_kb"}) {
    INFO(key);
    CHECK(host.contains(key));
    CHECK(host[key].is_null());
  }
  CHECK(snapshot.fingerprint["toolkit"]["nvcc"].is_null());
  CHECK(snapshot.fingerprint["toolkit"]["nvcc_path"] == "/opt/nvcc");
  CHECK(snapshot.fingerprint["gpu"]["note"] == "none here");
  CHECK_FALSE(snapshot.fingerprint["gpu"].contains("clocks_policy"));
  CHECK(snapshot.readings["gpus"] == json::array());
}
