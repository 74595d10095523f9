#pragma once

#include "support/command.h"
#include "support/temp_dir.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ej::test {

// A team sharing a journal: a bare remote, the first clone (whose journal was started there, with
// the remote as origin), and more clones added as the test needs them.
class Team {
public:
  Team();

  std::filesystem::path remote() const { return m_dir / "remote.git"; }
  std::string remote_url() const { return "file://" + remote().string(); }
  std::filesystem::path clone_path(int index) const { return m_dir / ("clone" + std::to_string(index)); }
  const std::filesystem::path& root() const { return m_dir.path(); }

  // A second machine: a clone of the remote (no journal yet: ej init there).
  void add_clone(int index) const;

  CommandResult ej(int index, const std::vector<std::string>& args) const;
  // Runs ej in a clone and fails the test (showing stderr) unless it exits 0; returns stdout.
  std::string ok(int index, const std::vector<std::string>& args) const;
  std::filesystem::path db(int index) const { return clone_path(index) / ".git" / "ej" / "journal.db"; }

private:
  TempDir m_dir;
};

} // namespace ej::test
