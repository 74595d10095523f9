#include "store/wal_ownership.h"

#include "store/database.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

namespace ej::store {

namespace {

// The WAL format (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header, then
// frames of a 24-byte header and one page.
constexpr std::size_t k_wal_header = 32;
constexpr std::size_t k_frame_header = 24;
constexpr std::uint32_t k_wal_magic = 0x377f0682; // the low bit says the checksum's byte order
constexpr std::string_view k_stamp_prefix = "ej-wal-stamp ";
constexpr std::size_t k_token_size = 16;
constexpr std::size_t k_stamp_size = k_stamp_prefix.size() + 2 * k_token_size + 1;

std::uint32_t big_endian_32(const unsigned char* p)
{
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::uint16_t big_endian_16(const unsigned char* p)
{
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

// SQLite's running checksum over 8-byte steps, its words read in the order the header chose.
struct Checksum {
  bool big_endian = true;
  std::uint32_t s0 = 0;
  std::uint32_t s1 = 0;

  void add(const unsigned char* data, std::size_t size)
  {
    for (std::size_t i = 0; i + 8 <= size; i += 8) {
      s0 += word(data + i) + s1;
      s1 += word(data + i + 4) + s0;
    }
  }

  std::uint32_t word(const unsigned char* p) const
  {
    return big_endian ? big_endian_32(p)
                      : (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[2]} << 16) |
                            (std::uint32_t{p[1]} << 8) | p[0];
  }
};

// A SQLite varint at p (at most 9 bytes, not past end); nullopt when it runs past end.
std::optional<std::uint64_t> varint(const unsigned char*& p, const unsigned char* end)
{
  std::uint64_t value = 0;
  for (int i = 0; i < 9; ++i) {
    if (p >= end) {
      return std::nullopt;
    }
    const unsigned char byte = *p++;
    if (i == 8) {
      return (value << 8) | byte;
    }
    value = (value << 7) | (byte & 0x7f);
    if ((byte & 0x80) == 0) {
      return value;
    }
  }
  return value;
}

bool hex_token(std::string_view text)
{
  return text.size() == k_token_size && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The stamp when the page is wal_stamp's: a table leaf holding one row of two columns, the rowid
// alias (stored as NULL) and the stamp text.
std::optional<WalStamp> stamp_in_page(const unsigned char* page, std::size_t size, std::uint32_t number)
{
  if (number == 1 || size < 12 || page[0] != 0x0D || big_endian_16(page + 3) != 1) {
    return std::nullopt;
  }
  const unsigned char* end = page + size;
  const unsigned char* p = page + big_endian_16(page + 8);
  if (p >= end) {
    return std::nullopt;
  }
  const auto payload = varint(p, end);
  const auto rowid = varint(p, end);
  const unsigned char* record = p;
  const auto header_size = varint(p, end);
  if (!payload || !rowid || !header_size) {
    return std::nullopt;
  }
  const auto first_type = varint(p, end);
  const auto second_type = varint(p, end);
  if (!first_type || !second_type || *first_type != 0 || *second_type != 13 + 2 * k_stamp_size ||
      static_cast<std::uint64_t>(p - record) != *header_size || *payload != *header_size + k_stamp_size ||
      static_cast<std::size_t>(end - p) < k_stamp_size) {
    return std::nullopt;
  }
  const std::string_view text(reinterpret_cast<const char*>(p), k_stamp_size);
  if (!text.starts_with(k_stamp_prefix)) {
    return std::nullopt;
  }
  WalStamp stamp{std::string(text.substr(k_stamp_prefix.size(), k_token_size)),
                 std::string(text.substr(k_stamp_prefix.size() + k_token_size + 1))};
  if (!hex_token(stamp.token) || !hex_token(stamp.previous)) {
    return std::nullopt;
  }
  return stamp;
}

std::filesystem::path with_suffix(const std::filesystem::path& file, std::string_view suffix)
{
  auto out = file;
  out += suffix;
  return out;
}

// The size and header of a WAL: while both stay, no transaction was added and none restarted it.
struct WalFingerprint {
  std::uintmax_t size = 0;
  std::array<char, k_wal_header> header{};
  bool operator==(const WalFingerprint&) const = default;
};

std::optional<WalFingerprint> fingerprint(const std::filesystem::path& wal)
{
  std::ifstream in(wal, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  WalFingerprint out;
  in.read(out.header.data(), static_cast<std::streamsize>(out.header.size()));
  std::error_code ec;
  out.size = std::filesystem::file_size(wal, ec);
  if (ec) {
    return std::nullopt;
  }
  return out;
}

enum class StampState { Stamped, Unstamped, Unreadable };

struct DatabaseStamp {
  StampState state = StampState::Unreadable;
  WalStamp stamp;
};

// Read straight from the file (immutable: no lock, no -shm, the WAL ignored), with SQLite's calls
// only: a page torn by a checkpoint copying it at this moment is a reason to read again, never
// the damage Database would record.
DatabaseStamp read_database_stamp(const std::filesystem::path& database)
{
  configure_sqlite();
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(immutable_uri(database).c_str(), &raw,
                                 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  const util::Handle<sqlite3, sqlite3_close_v2> db(raw);
  if (rc != SQLITE_OK) {
    return {};
  }
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db.get(), "SELECT stamp FROM wal_stamp WHERE id = 1", -1, &statement, nullptr) !=
      SQLITE_OK) {
    const bool unstamped = std::string_view(sqlite3_errmsg(db.get())).starts_with("no such table");
    return {unstamped ? StampState::Unstamped : StampState::Unreadable, {}};
  }
  const util::Handle<sqlite3_stmt, sqlite3_finalize> owned(statement);
  if (sqlite3_step(statement) != SQLITE_ROW) {
    return {};
  }
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  const std::string_view stamp = text != nullptr ? text : "";
  if (stamp.size() != k_stamp_size || !stamp.starts_with(k_stamp_prefix)) {
    return {};
  }
  return {StampState::Stamped,
          {std::string(stamp.substr(k_stamp_prefix.size(), k_token_size)),
           std::string(stamp.substr(k_stamp_prefix.size() + k_token_size + 1))}};
}

[[noreturn]] void keep_aside(const std::filesystem::path& file, const std::filesystem::path& wal,
                             const WalContents& contents)
{
  const auto reason =
      contents.stamps.empty()
          ? fmt::format("it holds {} committed transaction(s), none written by ej to this journal",
                        contents.commits)
          : fmt::format("its {} committed transaction(s) continue another database file than this one",
                        contents.commits);
  const auto aside = with_suffix(wal, fmt::format(".foreign-{}", util::now_ms()));
  std::error_code ec;
  std::filesystem::rename(wal, aside, ec);
  if (ec) {
    throw Error("the journal's write-ahead log {} was not written to {} ({}): replaying it would put another "
                "file's pages into the journal, so ej did not open it, and could not move it aside ({}): "
                "move it out of {} yourself, then run the command again",
                wal.string(), file.string(), reason, ec.message(), wal.parent_path().string());
  }
  throw Error("the journal's write-ahead log {} was not written to {} ({}): replaying it would put another "
              "file's pages into the journal. ej did not open the journal and moved the log aside to {}; the "
              "journal is as its own file holds it: run the command again. If the log is this journal's "
              "own and the file was replaced (an older copy put back), put the file it belongs to back "
              "beside it instead",
              wal.string(), file.string(), reason, aside.string());
}

} // namespace

std::optional<WalContents> read_wal(const std::filesystem::path& wal, const std::optional<std::string>& token)
{
  std::ifstream in(wal, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::array<unsigned char, k_wal_header> header{};
  if (!in.read(reinterpret_cast<char*>(header.data()), header.size())) {
    return std::nullopt;
  }
  const auto magic = big_endian_32(header.data());
  WalContents out;
  out.page_size = big_endian_32(header.data() + 8);
  if ((magic & ~1u) != k_wal_magic || out.page_size < 512 || out.page_size > 65536 ||
      (out.page_size & (out.page_size - 1)) != 0) {
    return std::nullopt;
  }
  Checksum sum;
  sum.big_endian = (magic & 1u) != 0;
  sum.add(header.data(), 24);
  if (sum.s0 != big_endian_32(header.data() + 24) || sum.s1 != big_endian_32(header.data() + 28)) {
    return std::nullopt;
  }
  std::vector<unsigned char> frame(k_frame_header + out.page_size);
  std::optional<WalStamp> pending; // the stamp of the transaction being read, until its commit
  while (in.read(reinterpret_cast<char*>(frame.data()), static_cast<std::streamsize>(frame.size()))) {
    const auto page_number = big_endian_32(frame.data());
    if (page_number == 0 || std::memcmp(frame.data() + 8, header.data() + 16, 8) != 0) {
      break; // a frame of an earlier generation of the log, or none
    }
    sum.add(frame.data(), 8);
    sum.add(frame.data() + k_frame_header, out.page_size);
    if (sum.s0 != big_endian_32(frame.data() + 16) || sum.s1 != big_endian_32(frame.data() + 20)) {
      break; // torn or never completed: SQLite stops here too
    }
    if (auto stamp = stamp_in_page(frame.data() + k_frame_header, out.page_size, page_number)) {
      pending = std::move(stamp);
    }
    if (big_endian_32(frame.data() + 4) != 0) { // a commit frame
      ++out.commits;
      if (pending) {
        out.met = token && ((out.stamps.empty() && pending->previous == *token) || pending->token == *token);
        out.stamps.push_back(std::move(*pending));
        pending.reset();
        if (out.met) {
          break; // the rest of the log cannot change that it continues the file
        }
      }
    }
  }
  return out;
}

std::optional<WalStamp> database_stamp(const std::filesystem::path& database)
{
  auto stamp = read_database_stamp(database);
  if (stamp.state != StampState::Stamped) {
    return std::nullopt;
  }
  return std::move(stamp.stamp);
}

bool wal_belongs(const WalContents& wal, const WalStamp& database)
{
  if (wal.commits == 0) {
    return true; // nothing to replay
  }
  if (wal.stamps.empty()) {
    return false;
  }
  if (wal.stamps.front().previous == database.token) {
    return true; // the file as it was when the log began
  }
  for (const auto& stamp : wal.stamps) {
    if (stamp.token == database.token) {
      return true; // the file as a checkpoint left it, part of the way through
    }
  }
  return false;
}

void refuse_foreign_wal(const std::filesystem::path& journal_file)
{
  // Other ej processes may commit, checkpoint or restart the log while it is read here. A verdict
  // needs the log unchanged around one reading of both files, and the same mismatch twice in a
  // row: while the log keeps its generation the file's token only moves along its chain (a
  // checkpoint), to a link a later reading of the log holds. A log that never keeps still is
  // being written by a live ej that replayed it already.
  constexpr int k_readings = 50;
  const auto wal = with_suffix(journal_file, "-wal");
  std::optional<std::pair<WalFingerprint, std::string>> mismatch; // the log, the file's token
  for (int reading = 0; reading < k_readings; ++reading) {
    if (reading > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const auto before = fingerprint(wal);
    if (!before || before->size < k_wal_header + k_frame_header) {
      return; // nothing SQLite would replay
    }
    const auto stamp = read_database_stamp(journal_file);
    if (stamp.state == StampState::Unstamped) {
      return; // a journal from before the stamp: nothing to compare with
    }
    // Read up to where the file's token is met (usually the log's first commit, made just after
    // the checkpoint that brought the file up to date).
    const auto contents =
        read_wal(wal, stamp.state == StampState::Stamped ? std::optional(stamp.stamp.token) : std::nullopt);
    if (!contents || contents->commits == 0) {
      return;
    }
    const auto after = fingerprint(wal);
    if (!after || *after != *before || stamp.state == StampState::Unreadable) {
      mismatch.reset();
      continue;
    }
    if (contents->met || wal_belongs(*contents, stamp.stamp)) {
      return;
    }
    auto seen = std::make_pair(*after, stamp.stamp.token);
    if (mismatch && *mismatch == seen) {
      keep_aside(journal_file, wal, *contents);
    }
    mismatch = std::move(seen);
  }
}

} // namespace ej::store
