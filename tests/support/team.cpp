#include "support/team.h"

#include <catch2/catch.hpp>

namespace ej::test {

Team::Team() : m_dir("ej-sync")
{
  git(m_dir.path(), {"init", "-q", "--bare", "-b", "main", remote().string()});
  make_git_repo(clone_path(0));
  git(clone_path(0), {"remote", "add", "origin", remote_url()});
  git(clone_path(0), {"push", "-q", "-u", "origin", "main"});
  CHECK(ej(0, {"init"}).exit_code == 0);
}

void Team::add_clone(int index) const
{
  git(m_dir.path(), {"clone", "-q", remote_url(), clone_path(index).string()});
  git(clone_path(index), {"config", "user.name", "ej test"});
  git(clone_path(index), {"config", "user.email", "ej-test@example.invalid"});
}

CommandResult Team::ej(int index, const std::vector<std::string>& args) const
{
  return run_ej(clone_path(index), args);
}

std::string Team::ok(int index, const std::vector<std::string>& args) const
{
  const auto result = ej(index, args);
  INFO("clone " << index << ": ej " << args.front() << " stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

} // namespace ej::test
