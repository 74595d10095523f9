#include "support/temp_dir.h"

#include "support/failure_tracker.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace ej::test {

TempDir::TempDir(const std::string& label, bool keep_on_failure) : m_keep_on_failure(keep_on_failure)
{
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" + label + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + pattern);
  }
  m_path = std::filesystem::canonical(pattern);
}

TempDir::~TempDir()
{
  // A failing test keeps its directory for inspection.
  if (m_keep_on_failure && (current_test_failed || std::uncaught_exceptions() > 0)) {
    std::cerr << "kept test directory: " << m_path << "\n";
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
  // Siblings named after it ("<dir>-remote-root": a host's root kept outside the repository) are
  // the test's too. An explicit increment(ec): a range-for's operator++ throws when reading the
  // folder fails, and a destructor must not.
  const auto prefix = m_path.filename().string() + "-";
  const std::filesystem::directory_iterator end;
  for (std::filesystem::directory_iterator it(m_path.parent_path(), ec); !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind(prefix, 0) == 0) {
      std::error_code ignored;
      std::filesystem::remove_all(it->path(), ignored);
    }
  }
}

void write_text(const std::filesystem::path& path, const std::string& content)
{
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path());
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
}

std::string read_text(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::filesystem::path fixtures_dir()
{
  return std::filesystem::path(EJ_SOURCE_DIR) / "tests" / "fixtures" / "third-party";
}

} // namespace ej::test
