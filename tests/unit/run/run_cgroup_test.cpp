// A run's cgroup: what the benchmark starts is born inside it, cannot leave it, and is stopped
// when ej leaves it. Needs a writable cgroup2 hierarchy (root on most machines); says so otherwise.
#include "run/run_cgroup.h"
#include "support/skip.h"

#include "run/process.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ej::run;

namespace {

bool alive(pid_t pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

// A grandchild that left ej's process group and session and cleared its environment: what neither
// the group nor the EJ_GUARD variable finds. Returns its pid.
pid_t start_escaper()
{
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::setsid();
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      char* const argv[] = {const_cast<char*>("sleep"), const_cast<char*>("60"), nullptr};
      char* const env[] = {nullptr};
      ::execve("/bin/sleep", argv, env);
      ::_exit(127);
    }
    (void)!::write(fds[1], &grandchild, sizeof grandchild);
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t grandchild = -1;
  REQUIRE(::read(fds[0], &grandchild, sizeof grandchild) == sizeof grandchild);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return grandchild;
}

std::string cgroup_of(pid_t pid)
{
  std::ifstream groups("/proc/" + std::to_string(pid) + "/cgroup");
  for (std::string line; std::getline(groups, line);) {
    if (line.starts_with("0::")) {
      return line.substr(3);
    }
  }
  return {};
}

// A run's cgroup entered, or nullptr with the reason the test is skipped said.
std::unique_ptr<RunCgroup> enter_or_say_why()
{
  std::string why_not;
  auto cgroup = RunCgroup::enter(why_not);
  if (!cgroup) {
    ej::test::note_skipped(why_not);
    WARN("skipped: no cgroup for a run here (" << why_not << ")");
  }
  return cgroup;
}

} // namespace

TEST_CASE("a run's cgroup holds an escaper that cleared its environment, and leaving it stops that")
{
  const auto before = cgroup_of(::getpid());
  std::string why_not;
  auto cgroup = RunCgroup::enter(why_not);
  if (!cgroup) {
    CHECK_FALSE(why_not.empty());
    EJ_SKIP_NOT_APPLICABLE("no cgroup for a run here (" + why_not + ")");
  }
  CHECK(std::filesystem::is_directory(cgroup->directory()));
  CHECK(cgroup_of(::getpid()).find("/ej-run-" + std::to_string(::getpid()) + "-") != std::string::npos);
  const pid_t escaper = start_escaper();
  REQUIRE(alive(escaper));
  CHECK(cgroup_of(escaper) == cgroup_of(::getpid()));

  CHECK(cgroup->leave() == 1);
  CHECK(cgroup_of(::getpid()) == before); // ej is back where it was
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (alive(escaper) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(alive(escaper));
  CHECK_FALSE(std::filesystem::exists(cgroup->directory()));
  ::kill(escaper, SIGKILL); // whatever a failed check left behind
}

TEST_CASE("a run's cgroup left with nothing inside reports no leftovers and is removed")
{
  std::string why_not;
  auto cgroup = RunCgroup::enter(why_not);
  if (!cgroup) {
    EJ_SKIP_NOT_APPLICABLE("no cgroup for a run here (" + why_not + ")");
  }
  const auto directory = cgroup->directory();
  CHECK(cgroup->leave() == 0);
  CHECK_FALSE(std::filesystem::exists(directory));
}

TEST_CASE("EJ_CGROUP=off keeps a run out of a cgroup, saying why")
{
  ::setenv("EJ_CGROUP", "off", 1);
  std::string why_not;
  const auto cgroup = RunCgroup::enter(why_not);
  ::unsetenv("EJ_CGROUP");
  CHECK(cgroup == nullptr);
  CHECK(why_not == "EJ_CGROUP=off");
}

TEST_CASE("leaving a run's cgroup in the background stops the leftovers at once and ends home")
{
  const auto before = cgroup_of(::getpid());
  auto cgroup = enter_or_say_why();
  if (!cgroup) {
    return;
  }
  const auto directory = cgroup->directory();
  const pid_t escaper = start_escaper();
  REQUIRE(alive(escaper));

  CHECK(cgroup->leave_in_background() == 1); // counted, and stopped, before it returns
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (alive(escaper) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(alive(escaper));
  RunCgroup::wait_for_departures();
  CHECK(cgroup_of(::getpid()) == before);
  CHECK_FALSE(std::filesystem::exists(directory));
  ::kill(escaper, SIGKILL);
}

TEST_CASE("a run's cgroup entered while the last one is being left is not left by its helper")
{
  const auto before = cgroup_of(::getpid());
  auto first = enter_or_say_why();
  if (!first) {
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // (as below: a slow way out)
  CHECK(first->leave_in_background() == 0);
  std::string why_not;
  auto second = RunCgroup::enter(why_not); // waits for the first's helper before it moves in
  REQUIRE(second != nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(cgroup_of(::getpid()).find("/ej-run-" + std::to_string(::getpid()) + "-") != std::string::npos);
  CHECK(second->leave() == 0);
  CHECK(cgroup_of(::getpid()) == before);
}

TEST_CASE("a process started while ej is on its way out of a run's cgroup is born outside it")
{
  const auto before = cgroup_of(::getpid());
  auto cgroup = enter_or_say_why();
  if (!cgroup) {
    return;
  }
  // Moving in made the kernel's cgroup lock slow for writers for a grace period or two; past that,
  // ej's way out waits for a new one (10-25 ms), the window this test starts a process in.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(cgroup->leave_in_background() == 0);
  ProcessSpec spec;
  spec.argv = {"cat", "/proc/self/cgroup"};
  const auto result = run_process(spec); // waits for ej's way home first
  REQUIRE(result.succeeded());
  CHECK(result.out.text().find("0::" + before + "\n") != std::string::npos);
  CHECK(result.out.text().find("ej-run-") == std::string::npos);
}
