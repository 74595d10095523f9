#pragma once

#include "util/handle.h"

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

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

  // Steps once: true while there is a row to read.
  bool step();
  // Steps to the end of a statement that returns no rows.
  void run();
  void reset();

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::string blob(int column) const;
  bool is_null(int column) const;

private:
  sqlite3_stmt* m_statement = nullptr;
  StatementPool* m_pool = nullptr; // where it goes back to, when it came from one
  std::string m_sql;
};

enum class OpenMode { ReadWrite, ReadOnly };

// One SQLite connection, opened as DESIGN.md's storage rules say.
class Database {
public:
  static Database open(const std::filesystem::path& path, OpenMode mode);
  static Database open_memory();

  void exec(std::string_view sql);
  // A statement from the pool (reset and unbound), or newly compiled; it returns to the pool when it
  // goes out of scope. Statements must not outlive their Database.
  Statement prepare(std::string_view sql) { return Statement(m_db.get(), sql, *m_pool); }
  std::int64_t last_insert_rowid() const;
  // An integer from a one-value query ("PRAGMA user_version").
  std::int64_t query_integer(std::string_view sql);
  sqlite3* handle() const { return m_db.get(); }
  const std::filesystem::path& path() const { return m_path; }

private:
  Database(sqlite3* db, std::filesystem::path path)
    : m_db(db), m_path(std::move(path)), m_pool(std::make_unique<StatementPool>())
  {
  }

  util::Handle<sqlite3, sqlite3_close_v2> m_db;
  std::filesystem::path m_path;
  std::unique_ptr<StatementPool> m_pool; // declared last: finalized before the connection closes
};

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

} // namespace ej::store
