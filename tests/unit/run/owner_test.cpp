#include "run/owner.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ej::run;

TEST_CASE("a process is its runs' owner while it lives, and only the process that started with that pid")
{
  const auto ticks = process_start_ticks(::getpid());
  REQUIRE(ticks);
  const auto boot = boot_id();
  REQUIRE_FALSE(boot.empty());
  CHECK(owner_state(::getpid(), ticks, boot) == OwnerState::Running);
  CHECK(owner_state(::getpid(), *ticks + 1, boot) == OwnerState::Gone); // the pid was reused
  CHECK(owner_state(::getpid(), ticks, "another-boot") == OwnerState::Gone);
  CHECK(owner_state(::getpid(), std::nullopt, boot) == OwnerState::Running); // an older ej's run

  const pid_t child = ::fork();
  if (child == 0) {
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK_FALSE(process_start_ticks(child));
  CHECK(owner_state(child, std::nullopt, boot) == OwnerState::Gone);
}

TEST_CASE("a process's parent is read from /proc, and a process that is gone has none")
{
  CHECK(parent_pid(::getpid()) == ::getppid());
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK_FALSE(parent_pid(child));
}

TEST_CASE("a process whose name holds a newline and a parenthesis is read all the same")
{
  // /proc/PID/stat gives the name as it is: "PID (x\n) 1 2) S PPID ...", over two lines.
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::prctl(PR_SET_NAME, "x\n) 1 2", 0, 0, 0);
    const char byte = 1;
    (void)!::write(ready[1], &byte, 1);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  CHECK(parent_pid(child) == ::getpid());
  CHECK(process_start_ticks(child));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
}
