#include "remote/remote_environment.h"
#include "remote/remote_wrapper.h"
#include "util/shell_quote.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace ej;

TEST_CASE("the trailer is taken off the end of stderr with what it says")
{
  run::Capture err;
  // `times` prints the shell's own times, then its children's: the benchmark's.
  err.head = "warning: slow\n\nej-end-1 0 1500000000 1\n0m0.010s 0m0.000s\n1m0.250s 0m0.125s\n";
  err.total_bytes = err.head.size();
  const auto trailer = remote::take_trailer(err, "ej-end-1");
  REQUIRE(trailer);
  CHECK(trailer->status == 0);
  REQUIRE(trailer->wall_s);
  CHECK(*trailer->wall_s == Approx(1.5));
  CHECK(trailer->user_s == Approx(60.25));
  CHECK(trailer->sys_s == Approx(0.125));
  CHECK(trailer->group_left);
  CHECK(err.head == "warning: slow\n");
  CHECK(err.total_bytes == err.head.size());
}

TEST_CASE(
    "the wrapper measures the benchmark's CPU time, stops what it left in its group, and finds escapers")
{
  // The wrapper as the host runs it: sh, in a session of its own as sshd starts a command.
  const auto dir = std::filesystem::temp_directory_path() / ("ej-wrapper-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto script = dir / "wrapper.sh";
  std::ofstream(script) << remote::wrapper_script();
  const auto guard = "ssh.test" + std::to_string(::getpid());
  int channel[2]; // the ssh channel: open while the test waits
  REQUIRE(::pipe(channel) == 0);
  run::ProcessSpec spec;
  spec.argv = {"sh", "-c",
               "exec setsid -w " +
                   remote::wrapper_command(script.string(), "ej-end-7", guard, dir.string(), "",
                                           {"sh", "-c",
                                            "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; "
                                            "sleep 60 & "
                                            // The escaper says when it has its own session: until then
                                            // it is still in the group, and stopped with it.
                                            "setsid sh -c ': > escaped; exec sleep 61' > /dev/null 2>&1 & "
                                            "while [ ! -e escaped ]; do sleep 0.01; done"})};
  spec.stdin_fd = channel[0];
  auto result = run::run_process(spec);
  ::close(channel[0]);
  ::close(channel[1]);
  REQUIRE(result.succeeded());
  const auto trailer = remote::take_trailer(result.err, "ej-end-7");
  REQUIRE(trailer);
  CHECK(trailer->status == 0);
  CHECK(trailer->user_s + trailer->sys_s > 0.01);
  CHECK(trailer->group_left); // the `sleep 60` in its group, stopped
  run::ProcessSpec sweep;
  sweep.shell = remote::leftovers_command(script.string(), guard);
  const auto swept = run::run_process(sweep);
  CHECK(swept.out.text() == "1\n"); // the setsid escaper, found by its marker
  std::filesystem::remove_all(dir);
}

TEST_CASE("no trailer, another nonce's or a cut one is not taken")
{
  run::Capture err;
  err.head = "Connection to host closed by remote host.\n";
  CHECK_FALSE(remote::take_trailer(err, "ej-end-1"));
  err.head = "x\nej-end-2 0 5 0\n0m0s 0m0s\n0m0s 0m0s\n";
  CHECK_FALSE(remote::take_trailer(err, "ej-end-1"));
  err.head = "x\nej-end-1 0 5";
  CHECK_FALSE(remote::take_trailer(err, "ej-end-1"));
}

TEST_CASE("a host whose date has no nanoseconds gives no wall time")
{
  run::Capture err;
  err.head = "\nej-end-1 3 - 0\n0m0s 0m0s\n0m0s 0m0s\n";
  const auto trailer = remote::take_trailer(err, "ej-end-1");
  REQUIRE(trailer);
  CHECK(trailer->status == 3);
  CHECK_FALSE(trailer->wall_s);
}

TEST_CASE("the live filter never passes the trailer on, however the chunks fall")
{
  const std::string stream = "line one\nline two\n\nej-end-9 0 100 0\n0m0s 0m0s\n0m0s 0m0s\n";
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    std::string seen;
    remote::TrailerFilter filter("ej-end-9", [&](run::Stream, std::string_view data) { seen.append(data); });
    filter.feed(run::Stream::Err, std::string_view(stream).substr(0, cut));
    filter.feed(run::Stream::Err, std::string_view(stream).substr(cut));
    filter.finish();
    CHECK(seen == "line one\nline two\n");
  }
  std::string seen;
  remote::TrailerFilter filter("ej-end-9", [&](run::Stream, std::string_view data) { seen.append(data); });
  filter.feed(run::Stream::Err, "ends with a newline that is no trailer\n");
  filter.finish();
  CHECK(seen == "ends with a newline that is no trailer\n");
}

TEST_CASE("shell quoting keeps every byte of a word")
{
  CHECK(util::shell_quote("it's") == "'it'\\''s'");
  CHECK(util::shell_join({"a b", "$HOME", ""}) == "'a b' '$HOME' ''");
}

TEST_CASE("a remote snapshot has the fields of a local one")
{
  run::EnvOptions options;
  options.overrides = {{"CUDA_VISIBLE_DEVICES", "0"}};
  const auto snapshot = remote::parse_remote_environment(
      "@@hostname\ngpu-box\n@@os\nPRETTY_NAME=\"Debian GNU/Linux 12\"\n"
      "@@kernel\n6.1.0\n@@arch\nx86_64\n@@cpu\nmodel name\t: EPYC\n"
      "@@cpus\n64\n@@memory\nMemTotal:  1000 kB\n@@smi\n@@nvcc-path\n\n"
      "@@nvcc\n@@env\nPATH=/usr/bin\nHF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz\n",
      options);
  const auto& fp = snapshot.fingerprint;
  CHECK(fp["host"]["hostname"] == "gpu-box");
  CHECK(fp["host"]["os"] == "Debian GNU/Linux 12");
  CHECK(fp["host"]["cpu_model"] == "EPYC");
  CHECK(fp["host"]["cpu_count"] == 64);
  CHECK(fp["host"]["memory_kb"] == 1000);
  CHECK(fp["gpu"]["source"] == "none");
  CHECK(fp["toolkit"]["nvcc"].is_null());
  CHECK(fp["variables"]["PATH"] == "/usr/bin");
  CHECK(fp["variables"]["CUDA_VISIBLE_DEVICES"] == "0");
  CHECK_FALSE(fp["variables"].contains("HF_TOKEN"));
  CHECK(fp.dump().find("hf_abcdefghij") == std::string::npos);
}

TEST_CASE("the same facts gathered locally or read from a host give the same fingerprint")
{
  const std::string smi = "0, NVIDIA H200, GPU-1234, 570.86.15, 143771, 3, 1980, 3201, 75.32, 700.00, 31, "
                          "Enabled, Enabled, [N/A], 0x0000000000000001\n";
  const std::string banner =
      "| NVIDIA-SMI 570.86.15    Driver Version: 570.86.15    CUDA Version: 12.8     |\n";
  run::EnvOptions options;
  options.gpu_clocks = "locked base";
  options.probes = {{"pip-freeze", {"pip", "freeze"}, std::nullopt, {}, 5}};

  // As capture_environment gathers them here: whole files, the whole `nvcc --version`.
  run::EnvFacts local;
  local.hostname = "gpu-box";
  local.os_release = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12\"\n";
  local.kernel = "6.1.0";
  local.arch = "x86_64";
  local.cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 9654\nflags\t\t: fpu\n";
  local.cpus = "64";
  local.meminfo = "MemTotal:       1000 kB\nMemFree:         500 kB\n";
  local.gpus = run::parse_nvidia_smi_csv(smi);
  run::add_cuda_version_from_banner(local.gpus, banner);
  local.nvcc_path = "/usr/local/cuda/bin/nvcc";
  local.nvcc_version =
      "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.8, V12.8.93\n";
  local.environment = {"PATH=/usr/bin", "HOME=/root", "NCCL_ALGO=Tree"};
  local.probes["pip-freeze"] = {
      {"command", "pip freeze"}, {"exit_code", 0}, {"output", "numpy==2.0\n"}, {"error", nullptr}};
  const auto from_here = run::build_snapshot(local, options);

  // As the host's snapshot script prints them: grep'd lines, the release line alone.
  const auto from_host = remote::parse_remote_environment(
      "@@hostname\ngpu-box\n@@os\n" + local.os_release + "@@kernel\n6.1.0\n@@arch\nx86_64\n" +
          "@@cpu\nmodel name\t: AMD EPYC 9654\n@@cpus\n64\n@@memory\nMemTotal:       1000 kB\n" + "@@smi\n" +
          smi + "@@smi-banner\n" + banner + "@@nvcc-path\n/usr/local/cuda/bin/nvcc\n" +
          "@@nvcc\nCuda compilation tools, release 12.8, V12.8.93\n" +
          "@@env\nPATH=/usr/bin\nHOME=/root\nNCCL_ALGO=Tree\n@@probe pip-freeze\nnumpy==2.0\n@@status 0\n",
      options);

  CHECK(from_here.fingerprint == from_host.fingerprint);
  CHECK(run::fingerprint_id(from_here) == run::fingerprint_id(from_host));
  CHECK(from_host.fingerprint["gpu"]["clocks_policy"] == "locked base");
  CHECK(from_host.fingerprint["gpu"]["cuda_driver_version"] == "12.8");
  CHECK(from_host.fingerprint["toolkit"]["nvcc"] == "Cuda compilation tools, release 12.8, V12.8.93");
  CHECK(from_host.fingerprint["probes"]["pip-freeze"]["exit_code"] == 0);
}
