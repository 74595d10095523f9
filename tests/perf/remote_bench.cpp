// The cost of `ej run --on ssh:HOST`, through the real binary and a real sshd on 127.0.0.1
// (support/sshd_server.h), each figure against a reference measured in the same process:
//   repeat:   the marginal cost of a remote repeat of `true` through ej's master connection,
//             against a loop of `ssh HOST true` through a master connection of its own
//             (goal: within 1.2x);
//   shipping: a run whose commit holds 100 MB, the first time (shipped; its cost over a run that
//             ships nothing against `git archive | ssh HOST tar -x` of the same commit) and again
//             (goal: reused, so within 1.2x of a run that ships nothing).
// Prints figures; asserts nothing.
#include "support/command.h"
#include "support/sshd_server.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <vector>

using ej::test::measure_once;

namespace {

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main()
{
  if (const auto reason = ej::test::SshdServer::unavailable()) {
    fmt::print("cannot measure: {}\n", *reason);
    return 1;
  }
  ej::test::SshdServer server;
  ej::test::TempDir dir("ej-perf-remote");
  const auto repo = dir.path() / "repo";
  ej::test::make_git_repo(repo);
  const std::string ej = EJ_BINARY;
  const std::map<std::string, std::string> env{{"EJ_SSH_COMMAND", server.ssh_command()}};
  const auto ej_argv = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv{"env", "EJ_SSH_COMMAND=" + server.ssh_command(), ej};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  };
  ej::test::run_command(ej_argv({"init"}), {repo, {}, {}});
  ej::test::run_command(
      ej_argv({"host", "add", "box", "ssh:" + server.alias(), "--root", (dir.path() / "root").string()}),
      {repo, {}, {}});
  ej::test::run_command(ej_argv({"bench", "add", "true", "--", "true"}), {repo, {}, {}});
  ej::test::run_command(ej_argv({"run", "true", "--on", "box", "--quiet", "--repeat", "1"}),
                        {repo, {}, {}}); // ships

  // The reference: its own master connection, then `ssh HOST true` in a loop through it.
  const auto socket = dir.path() / "ref.sock";
  const auto ssh = server.ssh_command() + " -o ControlPath=" + socket.string();
  ej::test::run_command(
      {"sh", "-c", ssh + " -o ControlMaster=yes -o ControlPersist=60 -fN " + server.alias()});
  const auto loop = [&](int count) {
    return std::vector<std::string>{
        "sh", "-c",
        fmt::format("i=0; while [ $i -lt {} ]; do {} -o ControlMaster=no {} true; i=$((i+1)); done", count,
                    ssh, server.alias())};
  };
  constexpr int k_repeats = 21;
  constexpr int k_rounds = 5;
  const std::vector<std::vector<std::string>> commands{
      ej_argv({"run", "true", "--on", "box", "--quiet", "--repeat", std::to_string(k_repeats)}),
      ej_argv({"run", "true", "--on", "box", "--quiet", "--repeat", "1"}), loop(k_repeats), loop(1)};
  std::vector<std::vector<double>> seconds(commands.size());
  for (int round = 0; round < k_rounds; ++round) {
    for (std::size_t i = 0; i < commands.size(); ++i) {
      const auto measured = measure_once(commands[i], repo);
      if (measured.exit_code != 0) {
        fmt::print("command {} failed (exit {})\n", i, measured.exit_code);
      }
      seconds[i].push_back(measured.seconds);
    }
  }
  const double ej_ms = (median(seconds[0]) - median(seconds[1])) / (k_repeats - 1) * 1000;
  const double ssh_ms = (median(seconds[2]) - median(seconds[3])) / (k_repeats - 1) * 1000;
  fmt::print("repeat over ssh, `true` (medians of {} interleaved rounds):\n", k_rounds);
  fmt::print("  ej run --on box     {:7.2f} ms per repeat (whole command of {} repeats {:6.3f} s)\n", ej_ms,
             k_repeats, median(seconds[0]));
  fmt::print("  ssh HOST true loop  {:7.2f} ms per command\n", ssh_ms);
  fmt::print("  ratio {:.2f}; goal <= 1.2: {}\n\n", ej_ms / ssh_ms,
             ej_ms / ssh_ms <= 1.2 ? "met" : "NOT MET");
  ej::test::run_command({"sh", "-c", ssh + " -O exit " + server.alias()});

  // 100 MB that does not compress, in one commit.
  {
    std::mt19937_64 random(42);
    for (int file = 0; file < 10; ++file) {
      std::ofstream out(repo / fmt::format("data-{}.bin", file), std::ios::binary);
      std::vector<std::uint64_t> block(1024 * 1024 / 8);
      for (int mb = 0; mb < 10; ++mb) {
        for (auto& word : block) {
          word = random();
        }
        out.write(reinterpret_cast<const char*>(block.data()),
                  static_cast<std::streamsize>(block.size() * 8));
      }
    }
    ej::test::git(repo, {"add", "."});
    ej::test::git(repo, {"commit", "-q", "-m", "100 MB"});
  }
  const auto commit = ej::test::git(repo, {"rev-parse", "HEAD"}).substr(0, 40);
  const auto first = measure_once(ej_argv({"run", "true", "--on", "box", "--quiet", "--repeat", "1"}), repo);
  std::vector<double> again;
  for (int round = 0; round < 3; ++round) {
    again.push_back(
        measure_once(ej_argv({"run", "true", "--on", "box", "--quiet", "--repeat", "1"}), repo).seconds);
  }
  const auto target = (dir.path() / "ref-archive").string();
  const auto reference =
      measure_once({"sh", "-c",
                    fmt::format("git -C {} archive --format=tar {} | {} {} 'mkdir -p {} && tar -xf - -C {}'",
                                repo.string(), commit, server.ssh_command(), server.alias(), target, target)},
                   repo);
  // A run of the small commit measured above ships nothing either: the same fixed cost (connect,
  // look, snapshot, one repeat, close) that a reused 100 MB commit must come down to.
  const double small = median(seconds[1]);
  fmt::print("shipping a 100 MB commit:\n");
  fmt::print("  git archive | ssh tar -x   {:6.3f} s (the reference, with its own handshake)\n",
             reference.seconds);
  fmt::print("  ej run, first time         {:6.3f} s: {:6.3f} s over a run that ships nothing ({:.2f}x the "
             "reference; exit {})\n",
             first.seconds, first.seconds - small, (first.seconds - small) / reference.seconds,
             first.exit_code);
  fmt::print("  ej run, same commit again  {:6.3f} s ({:.2f}x a run of the small commit, {:6.3f} s)\n",
             median(again), median(again) / small, small);
  fmt::print("  goal: the commit is reused (the second run within 1.2x of one that ships nothing): {}\n",
             median(again) <= 1.2 * small ? "met" : "NOT MET");
  return 0;
}
