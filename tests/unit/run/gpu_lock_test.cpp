#include "run/gpu_lock.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;

TEST_CASE("GPU lists are read as CUDA_VISIBLE_DEVICES gives them and described in ranges")
{
  const auto gpus = run::parse_gpu_list("0,1,2,3,6");
  CHECK_FALSE(gpus.all);
  CHECK(gpus.devices == std::vector<std::string>{"0", "1", "2", "3", "6"});
  CHECK(run::describe(gpus) == "GPUs 0-3,6");
  CHECK(run::describe(run::parse_gpu_list("5")) == "GPU 5");
  CHECK(run::describe(run::parse_gpu_list("")) == "no GPU");
  CHECK(run::describe(run::GpuSet{}) == "all GPUs");
  CHECK(run::describe(run::parse_gpu_list("GPU-8f3c2a1b-0000")) == "GPU GPU-8f3c2a1b-0000");
  CHECK_THROWS_AS(run::parse_gpu_list("0,../x"), Error);
  CHECK_THROWS_AS(run::parse_gpu_list("0,,1"), Error);
}

TEST_CASE("every GPU overlaps any run and listed GPUs overlap only when they share one")
{
  const run::GpuSet all;
  const auto zero = run::parse_gpu_list("0");
  const auto one_two = run::parse_gpu_list("1,2");
  CHECK(all.overlaps(zero));
  CHECK(zero.overlaps(all));
  CHECK(all.overlaps(run::parse_gpu_list("")));
  CHECK_FALSE(zero.overlaps(one_two));
  CHECK(one_two.overlaps(run::parse_gpu_list("2")));
}

TEST_CASE("all GPUs cover any set and listed GPUs cover only the sets within them")
{
  const run::GpuSet all;
  const auto one_two = run::parse_gpu_list("1,2");
  CHECK(all.covers(one_two));
  CHECK(all.covers(all));
  CHECK_FALSE(one_two.covers(all));
  CHECK(one_two.covers(run::parse_gpu_list("2")));
  CHECK(one_two.covers(run::parse_gpu_list("2,1")));
  CHECK_FALSE(one_two.covers(run::parse_gpu_list("0,1")));
  CHECK(one_two.covers(run::parse_gpu_list("")));
}

TEST_CASE("a held GPU lock shows its ticket with the run number once set and is gone when released")
{
  test::TempDir dir("ej-gpu-lock");
  run::LockTicket ticket;
  ticket.host = "gpu-box";
  ticket.bench = "gemm";
  ticket.journal = "/repo";
  ticket.gpus = run::parse_gpu_list("0,1");
  {
    auto lock = run::GpuLock::try_acquire(dir.path(), ticket);
    REQUIRE(lock);
    lock->set_run(12);
    const auto tickets = run::GpuLock::tickets(dir.path());
    REQUIRE(tickets.size() == 1);
    CHECK(tickets[0].holding);
    CHECK(tickets[0].run == 12);
    CHECK(run::describe(tickets[0], "/repo") == "run #12 on gpu-box, GPUs 0-1");
    CHECK(run::describe(tickets[0], "/other") == "run #12 in /repo on gpu-box, GPUs 0-1");
  }
  CHECK(run::GpuLock::tickets(dir.path()).empty());
  CHECK(run::GpuLock::try_acquire(dir.path(), ticket));
}
