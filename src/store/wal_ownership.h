#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Whether the write-ahead log beside a journal was written to that database file. SQLite checks a
// WAL's frames against the WAL's own header only, so a journal.db-wal copied in from another file,
// or left behind when journal.db was replaced, is replayed as if it were the journal's: its pages
// replace the journal's. ej tells the two apart by a stamp (docs/storage.md): every write of ej
// changes the one row of table wal_stamp to "ej-wal-stamp TOKEN PREVIOUS", a fresh random token
// and the one it replaces, so each commit in a WAL carries a link of the chain, and the database
// file holds the link its last checkpoint copied. A WAL belongs to the file when the file's token
// is one the WAL's chain passes through (or the one it starts from).
namespace ej::store {

// Run inside every write transaction of a journal, just before it commits (WriteTransaction).
inline constexpr std::string_view k_stamp_update =
    "UPDATE wal_stamp SET stamp = 'ej-wal-stamp ' || lower(hex(randomblob(8))) || ' ' || substr(stamp, 14, "
    "16) "
    "WHERE id = 1";

struct WalStamp {
  std::string token;    // 16 hex digits
  std::string previous; // the token this commit replaced
};

// What SQLite would replay from a WAL file.
struct WalContents {
  std::uint32_t page_size = 0;
  int commits = 0;              // committed transactions, as SQLite's recovery counts them
  std::vector<WalStamp> stamps; // the stamps ej's commits left, in commit order
  bool met = false;             // read_wal stopped at the token it was looking for
};

// Reads a WAL as SQLite's recovery does: the header and its checksum, then frames while their salts
// match the header's and their running checksum holds; frames after the last commit do not count.
// nullopt when there is no file or no valid header (SQLite replays nothing then). With a token,
// stops as soon as the chain is seen to start from it or pass through it (met).
std::optional<WalContents> read_wal(const std::filesystem::path& wal,
                                    const std::optional<std::string>& token = std::nullopt);

// The stamp in a database file itself (its WAL ignored): nullopt when the file has no wal_stamp
// table (a journal older than the stamp) or cannot be read as a database.
std::optional<WalStamp> database_stamp(const std::filesystem::path& database);

// Whether the WAL's commits continue the database file's state: its token starts the chain or is
// one of its links. A WAL with commits but no stamp belongs to no ej journal.
bool wal_belongs(const WalContents& wal, const WalStamp& database);

// Called before SQLite opens a journal: a -wal beside it holding commits that were not made to
// this file is moved aside (journal.db-wal.foreign-TIME), and ej::Error says so and what to do.
// Reads without locks while other ej processes may write: it concludes only from two readings in
// a row that agree and during which the WAL did not change.
void refuse_foreign_wal(const std::filesystem::path& journal_file);

} // namespace ej::store
