// Sharing a journal: a replica of N events (default 100,000) published to a bare remote, imported
// by a fresh clone, and a sync with nothing new, each with the reference measured in the same run
// (`git fetch` of the same remote for the round trip). Prints figures; asserts nothing.
//
//   perf_sync_bench [--events N] [--runs N]
#include "store/events.h"
#include "store/journal.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace ej;

namespace {

// Plans, attempts, and three changes (status, note, edit) per attempt: events / 4 attempts.
void generate(const std::filesystem::path& ej_dir, int events)
{
  auto journal = store::Journal::create(ej_dir);
  journal.write([&](store::Writer& writer) {
    for (int p = 0; p < 20; ++p) {
      writer.append(store::events::PlanCreated{"plan-" + std::to_string(p), "Plan " + std::to_string(p), "", "", ""});
    }
  });
  const int attempts = events / 4;
  for (int first = 1; first <= attempts; first += 1000) {
    journal.write([&](store::Writer& writer) {
      for (int number = first; number < first + 1000 && number <= attempts; ++number) {
        store::events::AttemptCreated created;
        created.number = number;
        created.plan = "plan-" + std::to_string(number % 20);
        created.title = "NCCL_ALGO=Tree with fused allreduce, variant " + std::to_string(number);
        created.hypothesis = "the tree algorithm wins on 8 GPUs over PCIe for small messages";
        created.tags = {"nccl"};
        const auto id = writer.append(created).id;
        const auto ref = store::events::Ref::to(id);
        writer.append(store::events::AttemptStatus{ref, "rejected", "no gain on PCIe: 27.8 ms vs 27.9 ms", {}});
        writer.append(store::events::AttemptNote{ref, "measured twice on the H200 box"});
        store::events::AttemptEdited edit;
        edit.attempt = ref;
        edit.add_tags = {"pcie"};
        writer.append(edit);
      }
    });
  }
}

double seconds_of(const std::vector<std::string>& argv, const std::filesystem::path& cwd)
{
  const auto measured = test::measure_once(argv, cwd);
  if (measured.exit_code != 0) {
    std::printf("  (failed: exit %d)\n", measured.exit_code);
  }
  return measured.seconds;
}

} // namespace

int main(int argc, char** argv)
{
  int events = 100000;
  int runs = 11;
  const char* profile = std::getenv("EJ_PERF_RECORD"); // a `perf record` of the import, to this file
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
      events = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    }
  }
  const std::string ej = EJ_BINARY;
  test::TempDir dir("ej-perf-sync");
  const auto remote = dir / "remote.git";
  const auto first = dir / "first";
  const auto second = dir / "second";
  test::git(dir.path(), {"init", "-q", "--bare", "-b", "main", remote.string()});
  test::make_git_repo(first);
  test::git(first, {"remote", "add", "origin", "file://" + remote.string()});
  test::git(first, {"push", "-q", "-u", "origin", "main"});
  generate(first / ".git" / "ej", events);
  std::printf("journal: %d events (%d attempts, 20 plans)\n\n", events + 20, events / 4);

  const auto publish = seconds_of({ej, "sync"}, first);
  std::printf("%-52s %8.2f s\n", "first ej sync (publish every event)", publish);

  test::git(dir.path(), {"clone", "-q", "file://" + remote.string(), second.string()});
  seconds_of({ej, "init"}, second);
  if (const char* keep = std::getenv("EJ_PERF_KEEP")) { // a copy to profile the import by hand
    std::filesystem::remove_all(keep);
    std::filesystem::copy(dir.path(), keep, std::filesystem::copy_options::recursive);
  }
  const auto import = profile != nullptr ? seconds_of({"perf", "record", "-g", "-o", profile, "--", ej, "sync"}, second)
                                         : seconds_of({ej, "sync"}, second);
  std::printf("%-52s %8.2f s   goal < 3 s: %s, %.0f events/s\n", "ej sync of a new clone (import every event)",
              import, import < 3 ? "met" : "NOT met", (events + 20) / import);

  const auto fetch = test::time_command({"git", "fetch", "-q", "origin"}, second, runs);
  const auto idle = test::time_command({ej, "sync"}, second, runs);
  test::print_timing("git fetch origin, nothing new (the round trip)", fetch, 0, 0);
  test::print_timing("ej sync, nothing new", idle, 0, 0);
  std::printf("ej sync with nothing new: %.1f ms over the round trip (goal < 100 ms): %s\n",
              idle.median_ms - fetch.median_ms, idle.median_ms - fetch.median_ms < 100 ? "met" : "NOT met");
  return 0;
}
