// What a journal shared through git keeps and gives away (issue 26): a purged value on the remote
// and in every clone, an export of a plan, documents rendered by another clone.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>

using namespace ej::test;
using nlohmann::json;

namespace {

// A bare remote and clones of it, each with its own journal; clone 0 starts the journal.
class StoreTeam {
public:
  StoreTeam() : m_dir("ej-shared-store")
  {
    git(m_dir.path(), {"init", "-q", "--bare", "-b", "main", remote().string()});
    make_git_repo(clone_path(0));
    git(clone_path(0), {"remote", "add", "origin", "file://" + remote().string()});
    git(clone_path(0), {"push", "-q", "-u", "origin", "main"});
    ok(0, {"init"});
  }

  std::filesystem::path remote() const { return m_dir / "remote.git"; }
  std::filesystem::path clone_path(int index) const { return m_dir / ("clone" + std::to_string(index)); }

  void add_clone(int index)
  {
    git(m_dir.path(), {"clone", "-q", "file://" + remote().string(), clone_path(index).string()});
    git(clone_path(index), {"config", "user.name", "ej test"});
    git(clone_path(index), {"config", "user.email", "ej-test@example.invalid"});
    ok(index, {"init"});
  }

  CommandResult ej(int index, const std::vector<std::string>& args) const
  {
    return run_ej(clone_path(index), args);
  }
  std::string ok(int index, const std::vector<std::string>& args) const
  {
    const auto result = ej(index, args);
    INFO("clone " << index << ": ej " << args.front() << "\nstdout: " << result.out
                  << "\nstderr: " << result.err);
    REQUIRE(result.exit_code == 0);
    return result.out;
  }

  // The replica id of a clone's journal: the one ref it publishes.
  std::string replica(int index) const
  {
    const auto refs = git(clone_path(index), {"for-each-ref", "--format=%(refname)", "refs/ej/replicas/"});
    REQUIRE(refs.starts_with("refs/ej/replicas/"));
    return refs.substr(std::string("refs/ej/replicas/").size(),
                       refs.find('\n') - std::string("refs/ej/replicas/").size());
  }

private:
  TempDir m_dir;
};

// Every object reachable from the refs given (git rev-list arguments), contents included.
std::string reachable_objects(const std::filesystem::path& repository, const std::vector<std::string>& refs)
{
  std::vector<std::string> args{"rev-list", "--objects"};
  args.insert(args.end(), refs.begin(), refs.end());
  const auto listed = git(repository, args);
  std::string ids;
  std::size_t start = 0;
  while (start < listed.size()) {
    const auto end = listed.find('\n', start);
    const auto line = listed.substr(start, end - start);
    ids += line.substr(0, line.find(' ')) + "\n";
    start = end == std::string::npos ? listed.size() : end + 1;
  }
  CommandOptions options;
  options.cwd = repository;
  options.input = ids;
  const auto contents = run_command({"git", "cat-file", "--batch"}, options);
  REQUIRE(contents.exit_code == 0);
  return contents.out;
}

} // namespace

TEST_CASE("ej purge rewrites what this replica published, ej sync replaces it on the remote, and other "
          "replicas holding the value are named")
{
  const std::string secret = "Wq7-zebra-lantern-42"; // no token shape: nothing redacts it on the way in
  StoreTeam team;
  team.ok(0, {"plan", "new", "p", "--title", "Deploy"});
  team.ok(0, {"try", "staging deploy", "--plan", "p", "--hypothesis", "the staging password is " + secret});
  team.ok(0, {"sync"});
  const auto me = team.replica(0);
  REQUIRE(reachable_objects(team.remote(), {"refs/ej/replicas/" + me}).find(secret) != std::string::npos);

  team.add_clone(1);
  team.ok(1, {"sync"});
  team.ok(1, {"note", "1", "logging in with " + secret + " failed"});
  team.ok(1, {"sync"});
  const auto other = team.replica(1);
  team.ok(0, {"sync"});

  const auto purged = team.ok(0, {"purge", "--secret", secret});
  CHECK_THAT(purged,
             Catch::Contains("rewrote 1 published batch(es)") && Catch::Contains("run 'ej sync' now"));
  CHECK_THAT(purged, Catch::Contains("still hold the value") && Catch::Contains(other) &&
                         Catch::Contains("must run 'ej purge --secret'"));
  CHECK_THAT(purged, Catch::Contains("git gc --prune=now"));
  // This clone's own ref, and the copies of it its fetches kept, no longer reach the value.
  std::vector<std::string> own_refs;
  const auto refs = git(team.clone_path(0), {"for-each-ref", "--format=%(refname)", "refs/ej/"});
  for (std::size_t start = 0; start < refs.size();) {
    const auto end = refs.find('\n', start);
    const auto ref = refs.substr(start, end - start);
    if (ref.ends_with("/replicas/" + me)) {
      own_refs.push_back(ref);
    }
    start = end == std::string::npos ? refs.size() : end + 1;
  }
  REQUIRE_FALSE(own_refs.empty());
  CHECK(reachable_objects(team.clone_path(0), own_refs).find(secret) == std::string::npos);

  team.ok(0, {"sync"});
  CHECK(reachable_objects(team.remote(), {"refs/ej/replicas/" + me}).find(secret) == std::string::npos);
  // The other clone syncs on over the replaced ref; once its owner purges too, nothing the remote
  // holds reaches the value.
  team.ok(1, {"sync"});
  const auto second = team.ok(1, {"purge", "--secret", secret});
  CHECK_THAT(second, !Catch::Contains("still hold the value"));
  team.ok(1, {"sync"});
  CHECK(reachable_objects(team.remote(), {"--all"}).find(secret) == std::string::npos);

  // Sharing goes on as before.
  team.ok(0, {"try", "after the purge", "--plan", "p"});
  team.ok(0, {"sync"});
  team.ok(1, {"sync"});
  team.ok(0, {"sync"});
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  CHECK(json::parse(team.ok(1, {"log", "--json"})).size() == 2);
  CHECK_THAT(team.ok(0, {"fsck", "--full"}), Catch::Contains("is ok"));
  CHECK_THAT(team.ok(1, {"fsck", "--full"}), Catch::Contains("is ok"));
}

TEST_CASE("ej export --plan of a plan whose baseline runs have no attempt, or another plan's, imports")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"plan", "new", "q", "--title", "Another plan"});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--metric", "x=regex:x=([0-9.]+)", "--shell", "echo x=1.5"});
  repo.ok({"run", "b", "--quiet"}); // run #1: no attempt
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  repo.ok({"try", "in q", "--plan", "q"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"}); // run #2: another plan's attempt
  repo.ok({"plan", "baseline", "p", "--run", "2", "--reason", "measured for q"});
  repo.ok({"try", "in p", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto file = repo.path() / "p.jsonl";
  repo.ok({"export", "--plan", "p", "-o", file.string()});

  EjRepo other;
  const auto imported = other.ej({"import", file.string()});
  INFO(imported.out << imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto baselines = json::parse(other.ok({"plan", "baseline", "p", "--json"}));
  REQUIRE(baselines.size() == 2);
  CHECK(baselines[1]["reason"] == "measured for q");
  CHECK(json::parse(other.ok({"log", "--plan", "p", "--json"})).size() == 1);
  CHECK_THAT(other.ok({"fsck", "--full"}), Catch::Contains("is ok"));
  CHECK(other.ok({"plan", "baseline", "p"}) == repo.ok({"plan", "baseline", "p"}));
}

TEST_CASE("a document another clone rendered is not taken for a hand edit, and a real edit still is")
{
  StoreTeam team;
  team.ok(0, {"plan", "new", "p", "--title", "Faster verify"});
  team.ok(0, {"try", "first idea", "--plan", "p"});
  team.ok(0, {"plan", "render", "p"});
  git(team.clone_path(0), {"add", "journal"});
  git(team.clone_path(0), {"commit", "-q", "-m", "plan document"});
  git(team.clone_path(0), {"push", "-q"});
  team.ok(0, {"sync"});

  team.add_clone(1);
  team.ok(1, {"sync"});
  team.ok(1, {"try", "second idea", "--plan", "p"});
  team.ok(1, {"sync"});
  const auto render = team.ej(1, {"plan", "render", "p"});
  INFO(render.err);
  CHECK(render.exit_code == 0);
  CHECK_THAT(render.err, !Catch::Contains("changed by hand"));
  const auto document = team.clone_path(1) / "journal" / "p.md";
  CHECK_THAT(read_text(document), Catch::Contains("second idea"));

  // A person's edit inside a region is told, whichever clone rendered the text around it.
  auto text = read_text(document);
  text.replace(text.find("second idea"), std::string("second idea").size(), "my own words");
  write_text(document, text);
  team.ok(1, {"try", "third idea", "--plan", "p"});
  const auto edited = team.ej(1, {"plan", "render", "p"});
  CHECK(edited.exit_code == 1);
  CHECK_THAT(edited.err, Catch::Contains("changed by hand"));
}

TEST_CASE("a document whose markers an older ej wrote, without hashes, renders and gets them")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first", "--plan", "p"});
  repo.ok({"plan", "render", "p"});
  const auto document = repo.path() / "journal" / "p.md";
  const auto with_hashes = read_text(document);
  const std::regex hash(" hash=[0-9a-f]{16}");
  REQUIRE(std::regex_search(with_hashes, hash));
  write_text(document, std::regex_replace(with_hashes, hash, ""));
  repo.ok({"try", "second", "--plan", "p"});
  const auto render = repo.ej({"plan", "render", "p"});
  INFO(render.err);
  CHECK(render.exit_code == 0);
  const auto migrated = read_text(document);
  CHECK_THAT(migrated, Catch::Contains("second"));
  CHECK(std::regex_search(migrated, hash));
}
