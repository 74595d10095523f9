#include "support/temp_dir.h"
#include "util/beneath.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/ulid.h"

#include <catch2/catch.hpp>

using ej::test::read_text;
using ej::test::TempDir;
using ej::util::BeneathWriter;

TEST_CASE("a beneath writer makes files, directories and links inside its directory")
{
  TempDir dir("ej-beneath");
  BeneathWriter writer(dir.path());
  writer.write_file("a/b/c.txt", "c\n", false);
  writer.write_file("run.sh", "#!/bin/sh\n", true);
  writer.make_symlink("a/link", "b");
  writer.write_file("a/link/d.txt", "d\n", false); // a link that stays inside is followed
  writer.make_directory("empty");
  CHECK(read_text(dir / "a/b/c.txt") == "c\n");
  CHECK(read_text(dir / "a/b/d.txt") == "d\n");
  CHECK((std::filesystem::status(dir / "run.sh").permissions() & std::filesystem::perms::owner_exec) !=
        std::filesystem::perms::none);
  CHECK(std::filesystem::is_directory(dir / "empty"));
}

TEST_CASE(
    "a beneath writer refuses paths that leave its directory, through links or by name, and existing files")
{
  TempDir dir("ej-beneath");
  const auto root = dir / "root";
  const auto outside = dir / "outside";
  std::filesystem::create_directories(root);
  std::filesystem::create_directories(outside);
  BeneathWriter writer(root);
  writer.make_symlink("sl", outside.string());
  writer.make_symlink("up", "../outside");
  writer.make_symlink("file-link", (outside / "victim").string());
  CHECK_THROWS_WITH(writer.write_file("sl/x", "x", false),
                    Catch::Contains("refused to write sl/x") && Catch::Contains("leads outside"));
  CHECK_THROWS_WITH(writer.write_file("up/x", "x", false), Catch::Contains("leads outside"));
  CHECK_THROWS_WITH(writer.write_file("sl/deep/x", "x", false), Catch::Contains("leads outside"));
  CHECK_THROWS_WITH(writer.write_file("file-link", "x", false), Catch::Contains("exists already"));
  CHECK_THROWS_WITH(writer.write_file("../x", "x", false), Catch::Contains("not a plain relative path"));
  CHECK_THROWS_WITH(writer.write_file("/etc/x", "x", false), Catch::Contains("not a plain relative path"));
  CHECK_THROWS_WITH(writer.make_symlink("sl/y", "z"), Catch::Contains("leads outside"));
  CHECK(std::filesystem::is_empty(outside));
}

TEST_CASE("a file's sha256 read in pieces is the sha256 of its bytes, and ULIDs are told from other text")
{
  TempDir dir("ej-hash");
  std::string bytes(3 * 1024 * 1024 + 5, 'q');
  bytes[12345] = '\0';
  ej::test::write_text(dir / "f", bytes);
  CHECK(ej::util::sha256_file(dir / "f") == ej::util::sha256_hex(bytes));
  CHECK_FALSE(ej::util::sha256_file(dir / "missing").has_value());
  CHECK(ej::util::is_ulid(ej::util::make_ulid(1'700'000'000'000)));
  CHECK_FALSE(ej::util::is_ulid("01J0000000000000000000000I")); // I is not Crockford base32
  CHECK_FALSE(ej::util::is_ulid("01J"));
}
