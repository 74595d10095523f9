#include "support/ej_repo.h"

#include <catch2/catch.hpp>

namespace ej::test {

EjRepo::EjRepo(bool init_journal) : m_dir("ej-e2e")
{
  make_git_repo(m_dir.path());
  if (init_journal) {
    ok({"init"});
  }
}

CommandResult EjRepo::ej(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) const
{
  return run_ej(m_dir.path(), args, env);
}

std::string EjRepo::ok(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) const
{
  const auto result = ej(args, env);
  INFO("ej stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

} // namespace ej::test
