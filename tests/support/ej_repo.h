#pragma once

#include "support/command.h"
#include "support/temp_dir.h"

#include <string>
#include <vector>

namespace ej::test {

// A temporary git repository with an initialised journal, for end-to-end tests.
class EjRepo {
public:
  explicit EjRepo(bool init_journal = true);
  const std::filesystem::path& path() const { return m_dir.path(); }
  CommandResult ej(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {}) const;
  // Runs ej and fails the test (showing stderr) unless it exits 0; returns stdout.
  std::string ok(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {}) const;
  // The journal's directory: in the git common directory (.git/ej).
  std::filesystem::path ej_dir() const { return path() / ".git" / "ej"; }
  std::filesystem::path db_path() const { return ej_dir() / "journal.db"; }

private:
  TempDir m_dir;
};

} // namespace ej::test
