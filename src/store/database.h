#pragma once

#include "util/handle.h"

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ej::store {

// Compiled statements kept for reuse: preparing the same SQL again and again was most of the time
// of commands that read many rows one query at a time (rendering a large plan).
class StatementPool {
public:
  StatementPool() = default;
  StatementPool(const StatementPool&) = delete;
  StatementPool& operator=(const StatementPool&) = delete;
  ~StatementPool();

  sqlite3_stmt* take(const std::string& sql);
  void give_back(const std::string& sql, sqlite3_stmt* statement) noexcept;

private:
  std::unordered_multimap<std::string, sqlite3_stmt*> m_free;
};

class Statement {
public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(sqlite3* db, std::string_view sql, StatementPool& pool);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind_blob(int index, std::string_view bytes);
  Statement& bind_null(int index);
  // An empty optional binds NULL.
  template <typename Value> Statement& bind(int index, const std::optional<Value>& value)
  {
    return value ? bind(index, *value) : bind_null(index);
  }
  // Binds the values to the parameters 1, 2, ... in order: no index to miscount in a long insert.
  template <typename... Values> Statement& bind_all(const Values&... values)
  {
    int index = 0;
    (bind(++index, values), ...);
    return *this;
  }

  // Steps once: true while there is a row to read.
  bool step();
  // Steps through every row left: each as `read` makes it of the statement at that row.
  template <typename Read> auto rows(Read read) -> std::vector<std::invoke_result_t<Read&, Statement&>>
  {
    std::vector<std::invoke_result_t<Read&, Statement&>> out;
    while (step()) {
      out.push_back(read(*this));
    }
    return out;
  }
  // Steps to the end of a statement that returns no rows.
  void run();
  void reset();

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  // The same without a copy: valid until the next step or reset, as SQLite keeps it.
  std::string_view text_view(int column) const;
  std::string blob(int column) const;
  bool is_null(int column) const;

private:
  sqlite3_stmt* m_statement = nullptr;
  StatementPool* m_pool = nullptr; // where it goes back to, when it came from one
  std::string m_sql;
};

// Immutable: a file nobody can write (a read-only mount), read without the locks and the -shm
// file SQLite would otherwise need to create beside it.
enum class OpenMode { ReadWrite, ReadOnly, Immutable };
// How commits reach the file: WAL (readers never wait for a writer), or the rollback journal
// with file locks, the mode that stays safe where WAL is not (network filesystems).
enum class JournalMode { Wal, Rollback };

// One SQLite connection, opened as DESIGN.md's storage rules say.
class Database {
public:
  // Opens without writing anything to the file (the journal mode is set apart, once the file is
  // known to be ej's).
  static Database open(const std::filesystem::path& path, OpenMode mode);
  static Database open_memory();
  // How long a statement waits for a lock another process holds before it fails as busy.
  void set_busy_timeout(int milliseconds);
  // The SQLite result code (SQLITE_OK when set): a full disk can refuse it.
  int set_journal_mode(JournalMode mode);
  // errno of the last failure SQLite met in the file system (ENOSPC for a full disk).
  int system_errno() const;
  // Whether SQLite could open the file for reading only (permissions, chattr +i, a read-only mount).
  bool read_only() const;
  // Whether one read of the schema succeeds; the SQLite result code otherwise (a WAL journal on
  // a read-only mount cannot be read without immutable, a full disk cannot create its -shm).
  int try_read() const;

  void exec(std::string_view sql);
  // A statement from the pool (reset and unbound), or newly compiled; it returns to the pool when it
  // goes out of scope. Statements must not outlive their Database.
  Statement prepare(std::string_view sql) { return Statement(m_db.get(), sql, *m_pool); }
  std::int64_t last_insert_rowid() const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  std::int64_t changes() const;
  // An integer from a one-value query ("PRAGMA user_version").
  std::int64_t query_integer(std::string_view sql);
  sqlite3* handle() const { return m_db.get(); }
  const std::filesystem::path& path() const { return m_path; }
  // As opened: another connection to the same file opens it the same way (ReadOnly for ReadWrite
  // when it only reads). An in-memory database has no file to open again.
  OpenMode mode() const { return m_mode; }
  bool in_memory() const { return m_path == ":memory:"; }
  // Changes the journal's WAL stamp (store/wal_ownership.h) inside the open write transaction, once
  // the schema has the table: every commit then tells whose log it is in.
  void stamp_write();

private:
  Database(sqlite3* db, std::filesystem::path path, OpenMode mode)
    : m_db(db), m_path(std::move(path)), m_mode(mode), m_pool(std::make_unique<StatementPool>())
  {
  }

  util::Handle<sqlite3, sqlite3_close_v2> m_db;
  std::filesystem::path m_path;
  OpenMode m_mode;
  bool m_stamped = false;                // the schema has the wal_stamp table (it is never dropped)
  std::unique_ptr<StatementPool> m_pool; // declared last: finalized before the connection closes
};

// Settings of SQLite itself, for the whole process; called before each connection is opened (only
// the first call, before SQLite initialises, does anything).
void configure_sqlite();

// "file:/path?immutable=1", with the characters a URI gives meaning to escaped: the file read as it
// is, without locks, -shm, or the WAL beside it.
std::string immutable_uri(const std::filesystem::path& path);

// BEGIN IMMEDIATE (every write takes the write lock up front, so two writers never deadlock on
// an upgrade); rolled back unless commit() was called.
class WriteTransaction {
public:
  explicit WriteTransaction(Database& db);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

private:
  Database& m_db;
  bool m_done = false;
};

// One consistent snapshot for a command that reads much (a document): also spares SQLite taking and
// releasing its file locks around every statement.
class ReadTransaction {
public:
  explicit ReadTransaction(Database& db);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
  Database& m_db;
};

// Turns an SQLite failure into the message a user can act on.
[[noreturn]] void throw_sqlite_error(sqlite3* db, int code, std::string_view doing);

// Once ej sees damage (a CORRUPT error, a failed check), it writes nothing more to the journal:
// the marker beside the file (journal.db.damaged) says what was seen, until `ej fsck --repair`.
std::filesystem::path damage_marker(const std::filesystem::path& journal_file);
void mark_damaged(const std::filesystem::path& journal_file, std::string_view what) noexcept;

} // namespace ej::store
