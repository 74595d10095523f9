#pragma once

#include "util/handle.h"

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ej::store {

class Statement {
public:
  Statement(sqlite3* db, std::string_view sql);

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
  util::Handle<sqlite3_stmt, sqlite3_finalize> m_statement;
};

enum class OpenMode { ReadWrite, ReadOnly };

// One SQLite connection, opened as DESIGN.md's storage rules say.
class Database {
public:
  static Database open(const std::filesystem::path& path, OpenMode mode);
  static Database open_memory();

  void exec(std::string_view sql);
  Statement prepare(std::string_view sql) { return Statement(m_db.get(), sql); }
  std::int64_t last_insert_rowid() const;
  // An integer from a one-value query ("PRAGMA user_version").
  std::int64_t query_integer(std::string_view sql);
  sqlite3* handle() const { return m_db.get(); }
  const std::filesystem::path& path() const { return m_path; }

private:
  Database(sqlite3* db, std::filesystem::path path) : m_db(db), m_path(std::move(path)) {}

  util::Handle<sqlite3, sqlite3_close_v2> m_db;
  std::filesystem::path m_path;
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

// Turns an SQLite failure into the message a user can act on.
[[noreturn]] void throw_sqlite_error(sqlite3* db, int code, std::string_view doing);

} // namespace ej::store
