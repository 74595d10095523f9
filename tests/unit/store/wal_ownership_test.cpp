#include "store/event_exchange.h"
#include "store/journal.h"
#include "store/wal_ownership.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>

using namespace ej;

namespace {

// Some writes of a journal that stays open, so that they are still in its WAL.
void write_notes(store::Journal& journal, int count)
{
  for (int i = 0; i < count; ++i) {
    journal.write([&](store::Writer&) { store::set_meta_value(journal.db(), "note", std::to_string(i)); });
  }
}

std::filesystem::path wal_of(const std::filesystem::path& dir)
{
  return dir / "journal.db-wal";
}

} // namespace

TEST_CASE("every commit of a journal leaves a link of the stamp chain in its WAL")
{
  test::TempDir dir;
  auto journal = store::Journal::create(dir.path());
  write_notes(journal, 5);
  const auto wal = store::read_wal(wal_of(dir.path()));
  REQUIRE(wal);
  CHECK(wal->page_size == 4096);
  REQUIRE(wal->commits >= 6); // the creation, and the five writes
  REQUIRE(static_cast<int>(wal->stamps.size()) == wal->commits);
  for (std::size_t i = 1; i < wal->stamps.size(); ++i) {
    CHECK(wal->stamps[i].previous == wal->stamps[i - 1].token);
    CHECK(wal->stamps[i].token != wal->stamps[i - 1].token);
  }
  // The file alone does not have the stamp's table yet: nothing to compare with.
  CHECK_FALSE(store::database_stamp(store::journal_file(dir.path())));
  journal.db().exec("PRAGMA wal_checkpoint(PASSIVE)");
  const auto stamp = store::database_stamp(store::journal_file(dir.path()));
  REQUIRE(stamp);
  CHECK(stamp->token == wal->stamps.back().token);
  CHECK(store::wal_belongs(*wal, *stamp));
  // The log goes on from where the file is: it still belongs once more is written.
  write_notes(journal, 2);
  CHECK(store::wal_belongs(*store::read_wal(wal_of(dir.path())), *stamp));
}

TEST_CASE("a WAL is read as SQLite recovers it: up to its last complete commit")
{
  test::TempDir dir;
  auto journal = store::Journal::create(dir.path());
  write_notes(journal, 3);
  const auto whole = store::read_wal(wal_of(dir.path()));
  REQUIRE(whole);
  std::ifstream in(wal_of(dir.path()), std::ios::binary);
  auto bytes = std::string(std::istreambuf_iterator<char>(in), {});
  const auto copy = dir.path() / "copy-wal";
  const auto frame = 24 + whole->page_size;
  // Cut in the middle of the last frame: the last commit is gone, the others stay.
  std::ofstream(copy, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size() - frame / 2));
  const auto cut = store::read_wal(copy);
  REQUIRE(cut);
  CHECK(cut->commits == whole->commits - 1);
  // A byte changed in the first frame's page breaks the running checksum there: nothing counts.
  bytes[32 + 24 + 100] = static_cast<char>(bytes[32 + 24 + 100] ^ 0x55);
  std::ofstream(copy, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  CHECK(store::read_wal(copy)->commits == 0);
  // Not a WAL at all.
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << std::string(100, 'x');
  CHECK_FALSE(store::read_wal(copy));
  CHECK_FALSE(store::read_wal(dir.path() / "none"));
}

TEST_CASE("another journal's WAL does not belong, nor one without a stamp")
{
  test::TempDir first;
  test::TempDir second;
  auto a = store::Journal::create(first.path());
  auto b = store::Journal::create(second.path());
  a.db().exec("PRAGMA wal_checkpoint(PASSIVE)");
  write_notes(b, 2);
  const auto stamp = store::database_stamp(store::journal_file(first.path()));
  REQUIRE(stamp);
  const auto foreign = store::read_wal(wal_of(second.path()));
  REQUIRE(foreign);
  CHECK_FALSE(store::wal_belongs(*foreign, *stamp));
  store::WalContents unstamped;
  unstamped.commits = 1;
  CHECK_FALSE(store::wal_belongs(unstamped, *stamp));
  CHECK(store::wal_belongs(store::WalContents{}, *stamp)); // nothing to replay
}
