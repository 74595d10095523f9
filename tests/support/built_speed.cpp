#include "support/built_speed.h"

#include "support/temp_dir.h"

#include <filesystem>

namespace ej::test {

void add_built_speed_benchmark(const EjRepo& repo)
{
  write_text(repo.path() / ".gitignore", "built-speed.txt\n");
  write_text(repo.path() / "bench.sh",
             "awk -v base=\"$(cat built-speed.txt)\" -v seed=\"$$\" "
             "'BEGIN { srand(seed); t = base * (1 + 0.05 * (rand() - 0.5)); system(\"sleep \" t / 1000); "
             "printf \"time_ms=%.4f\\n\", t }'\n");
  git(repo.path(), {"add", ".gitignore", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "the benchmark"});
  repo.ok({"bench", "add", "speed", "--build", "test -f builds-ok && cp speed.txt built-speed.txt",
           "--metric", "time_ms=kv:time_ms", "--unit", "time_ms=ms", "--", "sh", "bench.sh"});
}

std::string commit_speed(const EjRepo& repo, const std::string& speed, const std::string& subject,
                         BuildStep build)
{
  write_text(repo.path() / "speed.txt", speed + "\n");
  write_text(repo.path() / "change.txt", subject + "\n");
  if (build == BuildStep::Works) {
    write_text(repo.path() / "builds-ok", "");
  } else {
    std::filesystem::remove(repo.path() / "builds-ok");
  }
  git(repo.path(), {"add", "-A"});
  git(repo.path(), {"commit", "-q", "-m", subject});
  return git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40);
}

} // namespace ej::test
