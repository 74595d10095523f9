#pragma once

#include <filesystem>
#include <string>

namespace ej::test {

// A fresh directory under $TMPDIR, removed when the test passes and kept (path printed)
// when it fails, so a failing test can be inspected.
class TempDir {
public:
  explicit TempDir(const std::string& label = "ej-test", bool keep_on_failure = true);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
  std::filesystem::path m_path;
  bool m_keep_on_failure;
};

// Writes a file (creating parent directories).
void write_text(const std::filesystem::path& path, const std::string& content);
std::string read_text(const std::filesystem::path& path);

// The folder of real third-party benchmark outputs kept in the repository
// (tests/fixtures/third-party, listed with their sources in tests/fixtures/SOURCES.md).
// A test that needs one of them fails when it is missing.
std::filesystem::path fixtures_dir();
// The text of one of them (fixtures_dir() / name); the test fails when it is missing.
std::string read_fixture(const std::string& name);

} // namespace ej::test
