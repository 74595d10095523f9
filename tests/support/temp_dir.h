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

// The folder of real third-party benchmark outputs (../shared/fixtures/third-party), or an
// empty path when it is absent; tests that need it skip with a message.
std::filesystem::path fixtures_dir();

} // namespace ej::test
