// The example benchmark programs (examples/): they must print the metric lines that
// examples/README.md documents, since the README's `ej bench add` commands extract from them.
#include "support/command.h"
#include "support/skip.h"
#include "util/strings.h"

#include <catch2/catch.hpp>

#include <charconv>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using ej::test::run_command;

namespace {

const std::filesystem::path k_cpu_example = EJ_BUILD_DIR "/examples/cpu-bench/ej-example-cpu";
const std::filesystem::path k_cuda_example = EJ_BUILD_DIR "/examples/cuda/ej-example-cuda";

struct Metric {
  double value = 0.0;
  std::string unit;
};

// Parses the documented `metric: NAME=VALUE UNIT` lines; a malformed one fails the test.
std::map<std::string, Metric> parse_metrics(const std::string& out)
{
  std::map<std::string, Metric> metrics;
  for (const auto& line : ej::util::lines(out)) {
    const std::string prefix = "metric: ";
    if (line.rfind(prefix, 0) != 0) {
      continue;
    }
    const auto equals = line.find('=');
    const auto space = line.find(' ', prefix.size());
    INFO("line: " << line);
    REQUIRE(equals != std::string::npos);
    REQUIRE(space != std::string::npos);
    REQUIRE(equals < space);
    Metric metric;
    const char* begin = line.data() + equals + 1;
    const char* end = line.data() + space;
    const auto [stop, error] = std::from_chars(begin, end, metric.value);
    REQUIRE(error == std::errc());
    REQUIRE(stop == end);
    metric.unit = line.substr(space + 1);
    metrics[line.substr(prefix.size(), equals - prefix.size())] = metric;
  }
  return metrics;
}

bool has_line_starting_with(const std::string& out, const std::string& start)
{
  for (const auto& line : ej::util::lines(out)) {
    if (line.rfind(start, 0) == 0) {
      return true;
    }
  }
  return false;
}

// A machine with an NVIDIA driver loaded has these device files.
bool nvidia_device_present()
{
  return std::filesystem::exists("/dev/nvidiactl") || std::filesystem::exists("/dev/nvidia0");
}

} // namespace

TEST_CASE("the CPU example prints its time and throughput metric lines for each variant")
{
  REQUIRE(std::filesystem::exists(k_cpu_example)); // build the target ej-example-cpu first
  for (const std::string variant : {"naive", "blocked"}) {
    const auto result =
        run_command({k_cpu_example.string(), "--variant", variant, "--size", "300", "--iterations", "2"});
    INFO("variant " << variant << "\nstdout:\n" << result.out << "stderr:\n" << result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.err.empty());
    CHECK(has_line_starting_with(result.out, "# ej-example-cpu: transpose variant=" + variant +
                                                 " size=300 iterations=2"));
    const auto metrics = parse_metrics(result.out);
    REQUIRE(metrics.size() == 2);
    REQUIRE(metrics.count("time_ms") == 1);
    REQUIRE(metrics.count("throughput_gbs") == 1);
    CHECK(metrics.at("time_ms").unit == "ms");
    CHECK(metrics.at("time_ms").value >= 0.0);
    CHECK(metrics.at("throughput_gbs").unit == "GB/s");
    CHECK(metrics.at("throughput_gbs").value > 0.0);
  }
}

TEST_CASE("the CPU example accepts --name=value and a size that is not a multiple of the tile")
{
  const auto result =
      run_command({k_cpu_example.string(), "--variant=blocked", "--size=37", "--iterations=1"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(parse_metrics(result.out).count("time_ms") == 1);
}

TEST_CASE("the CPU example rejects bad arguments with exit code 2 and a message on stderr")
{
  const std::vector<std::vector<std::string>> bad = {
      {"--variant", "fast"}, {"--size", "0"}, {"--size", "12x"}, {"--iterations", "-1"}, {"--size", "99999"},
      {"--iterations"},      {"--bogus"},     {"positional"},    {"--variant=slow"},
  };
  for (const auto& args : bad) {
    std::vector<std::string> argv{k_cpu_example.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = run_command(argv);
    INFO("args: " << ej::util::join(args, " ") << "\nstderr: " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(result.err.rfind("ej-example-cpu: ", 0) == 0);
    CHECK(result.err.find("see --help") != std::string::npos);
  }
}

TEST_CASE("the CPU example's --help lists its options and exits 0")
{
  const auto result = run_command({k_cpu_example.string(), "--help"});
  CHECK(result.exit_code == 0);
  for (const char* option : {"--variant", "--size", "--iterations", "metric: time_ms="}) {
    CHECK(result.out.find(option) != std::string::npos);
  }
}

TEST_CASE("the CUDA example reports a missing device with exit code 3, or measures both variants")
{
  if (!std::filesystem::exists(k_cuda_example)) {
    EJ_SKIP_NOT_APPLICABLE("CUDA example not built (no nvcc)");
  }
  // Arguments are checked before the device is looked for, so this holds on every machine.
  const auto bad = run_command({k_cuda_example.string(), "--hidden", "12"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("multiple of 8") != std::string::npos);

  for (const std::string variant : {"fused", "unfused"}) {
    const auto result = run_command({k_cuda_example.string(), "--variant", variant, "--hidden", "512",
                                     "--tokens", "64", "--warmup", "1", "--iters", "3"});
    INFO("variant " << variant << "\nstdout:\n" << result.out << "stderr:\n" << result.err);
    if (!nvidia_device_present()) {
      CHECK(result.exit_code == 3);
      CHECK(result.out.empty());
      CHECK(result.err.rfind("ej-example-cuda: no CUDA device: ", 0) == 0);
      CHECK(result.err.find("; run it on a machine with an NVIDIA GPU") != std::string::npos);
      continue;
    }
    // With a device: metrics only, never timing (performance is not asserted by tests).
    REQUIRE(result.exit_code == 0);
    CHECK(has_line_starting_with(result.out, "# device: "));
    const auto metrics = parse_metrics(result.out);
    REQUIRE(metrics.count("kernel_us") == 1);
    REQUIRE(metrics.count("bandwidth_gbs") == 1);
    CHECK(metrics.at("kernel_us").unit == "us");
    CHECK(metrics.at("kernel_us").value > 0.0);
    CHECK(metrics.at("bandwidth_gbs").unit == "GB/s");
    CHECK(metrics.at("bandwidth_gbs").value > 0.0);
  }
}
