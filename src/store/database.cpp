#include "store/database.h"

#include "store/wal_ownership.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>

namespace ej::store {

namespace {

int busy_timeout_ms()
{
  // Tests shorten the wait for a locked journal; users get a generous default.
  if (const char* value = std::getenv("EJ_BUSY_TIMEOUT_MS"); value != nullptr && *value != '\0') {
    return std::atoi(value);
  }
  return 10000;
}

std::string database_name(sqlite3* db)
{
  const char* name = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  return name != nullptr && *name != '\0' ? name : ":memory:";
}

} // namespace

std::filesystem::path damage_marker(const std::filesystem::path& journal_file)
{
  auto marker = journal_file;
  marker += ".damaged";
  return marker;
}

void mark_damaged(const std::filesystem::path& journal_file, std::string_view what) noexcept
{
  if (journal_file.empty() || journal_file == ":memory:") {
    return;
  }
  // Best effort: the error that follows says what happened either way.
  std::ofstream out(damage_marker(journal_file), std::ios::app);
  out << what << '\n';
}

void throw_sqlite_error(sqlite3* db, int code, std::string_view doing)
{
  const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  const auto file = database_name(db);
  // A full disk often reaches SQLite as an I/O error (a -shm or -wal that cannot grow).
  if (db != nullptr && sqlite3_system_errno(db) == ENOSPC &&
      ((code & 0xFF) == SQLITE_IOERR || (code & 0xFF) == SQLITE_CANTOPEN || (code & 0xFF) == SQLITE_FULL)) {
    throw Error(
        "the disk holding the journal {} is full (while {}): free space there and try again; the journal "
        "itself is not damaged, and this write was not recorded",
        file, doing);
  }
  switch (code & 0xFF) {
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    throw Error("the journal {} is locked by another process (waited {} ms while {}); try again when it "
                "has finished",
                file, busy_timeout_ms(), doing);
  case SQLITE_NOTADB:
    throw Error(
        "{} is not a SQLite database, or its header is damaged ({}); run 'ej fsck' to check it, and restore "
        "a backup ({}.backup-*) if it is damaged",
        file, message, file);
  case SQLITE_CORRUPT:
    mark_damaged(file, fmt::format("{} while {}", message, doing));
    throw Error(
        "the journal {} is damaged ({} while {}); ej writes nothing more to it: run 'ej fsck' to check it "
        "and 'ej fsck --repair' to rebuild it from its intact events into a new file (the damaged one is "
        "kept)",
        file, message, doing);
  case SQLITE_READONLY:
    throw Error("cannot write the journal {} ({}) while {}; check the file's permissions", file, message,
                doing);
  case SQLITE_FULL:
    throw Error(
        "the disk is full while {} (journal {}); free space and try again; this write was not recorded",
        doing, file);
  default:
    throw Error("database error while {} (journal {}): {}", doing, file, message);
  }
}

StatementPool::~StatementPool()
{
  for (auto& entry : m_free) {
    sqlite3_finalize(entry.second);
  }
}

sqlite3_stmt* StatementPool::take(const std::string& sql)
{
  const auto it = m_free.find(sql);
  if (it == m_free.end()) {
    return nullptr;
  }
  auto* statement = it->second;
  m_free.erase(it);
  return statement;
}

void StatementPool::give_back(const std::string& sql, sqlite3_stmt* statement) noexcept
{
  sqlite3_reset(statement);
  sqlite3_clear_bindings(statement);
  try {
    m_free.emplace(sql, statement);
  } catch (...) {
    sqlite3_finalize(statement);
  }
}

namespace {

sqlite3_stmt* compile(sqlite3* db, std::string_view sql, unsigned flags)
{
  sqlite3_stmt* statement = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), flags, &statement, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(statement);
    throw_sqlite_error(db, rc, "preparing a query");
  }
  return statement;
}

} // namespace

Statement::Statement(sqlite3* db, std::string_view sql) : m_statement(compile(db, sql, 0)) {}

Statement::Statement(sqlite3* db, std::string_view sql, StatementPool& pool) : m_pool(&pool), m_sql(sql)
{
  m_statement = pool.take(m_sql);
  if (m_statement == nullptr) {
    m_statement = compile(db, sql, SQLITE_PREPARE_PERSISTENT);
  }
}

Statement::Statement(Statement&& other) noexcept
    : m_statement(other.m_statement), m_pool(other.m_pool), m_sql(std::move(other.m_sql))
{
  other.m_statement = nullptr;
  other.m_pool = nullptr;
}

Statement::~Statement()
{
  if (m_statement == nullptr) {
    return;
  }
  if (m_pool != nullptr) {
    m_pool->give_back(m_sql, m_statement);
  } else {
    sqlite3_finalize(m_statement);
  }
}

namespace {

void check_bind(sqlite3_stmt* statement, int rc)
{
  if (rc != SQLITE_OK) {
    throw_sqlite_error(sqlite3_db_handle(statement), rc, "binding a value");
  }
}

} // namespace

Statement& Statement::bind(int index, std::int64_t value)
{
  check_bind(m_statement, sqlite3_bind_int64(m_statement, index, value));
  return *this;
}

Statement& Statement::bind(int index, double value)
{
  check_bind(m_statement, sqlite3_bind_double(m_statement, index, value));
  return *this;
}

Statement& Statement::bind(int index, std::string_view value)
{
  check_bind(m_statement, sqlite3_bind_text64(m_statement, index, value.data(), value.size(),
                                              SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes)
{
  check_bind(m_statement,
             sqlite3_bind_blob64(m_statement, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind_null(int index)
{
  check_bind(m_statement, sqlite3_bind_null(m_statement, index));
  return *this;
}

namespace {

// A statement that writes, run on its own (SQLite's autocommit): no PRAGMA (a checkpoint cannot run
// inside a transaction) and no rows to read back (its transaction ends with its first step).
bool lone_write(sqlite3_stmt* statement)
{
  sqlite3* db = sqlite3_db_handle(statement);
  if (sqlite3_get_autocommit(db) == 0 || sqlite3_stmt_readonly(statement) != 0 ||
      sqlite3_column_count(statement) != 0) {
    return false;
  }
  std::string_view sql = sqlite3_sql(statement) != nullptr ? sqlite3_sql(statement) : "";
  sql.remove_prefix(std::min(sql.find_first_not_of(" \t\r\n"), sql.size()));
  const bool pragma = sql.size() >= 6 && (sql[0] == 'P' || sql[0] == 'p') && (sql[1] == 'R' || sql[1] == 'r');
  return !pragma && sqlite3_table_column_metadata(db, "main", "wal_stamp", nullptr, nullptr, nullptr, nullptr,
                                                  nullptr, nullptr) == SQLITE_OK;
}

// Runs a lone write as the storage rules want every write: in BEGIN IMMEDIATE, with the WAL stamp
// (store/wal_ownership.h). A commit without the stamp would make the next ej take a log that holds
// nothing else for another file's.
int step_in_transaction(sqlite3_stmt* statement)
{
  sqlite3* db = sqlite3_db_handle(statement);
  if (const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr); rc != SQLITE_OK) {
    throw_sqlite_error(db, rc, "starting a write");
  }
  struct RollbackUnlessCommitted {
    sqlite3* db;
    bool committed = false;
    ~RollbackUnlessCommitted()
    {
      if (!committed) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      }
    }
  } transaction{db};
  const int rc = sqlite3_step(statement); // the error is read before the rollback, while unwinding
  if (rc != SQLITE_DONE) {
    throw_sqlite_error(db, rc, "running a query");
  }
  const std::string stamp(k_stamp_update);
  for (const char* sql : {stamp.c_str(), "COMMIT"}) {
    if (const int done = sqlite3_exec(db, sql, nullptr, nullptr, nullptr); done != SQLITE_OK) {
      throw_sqlite_error(db, done, "updating the journal");
    }
  }
  transaction.committed = true;
  sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr); // see Database::open
  return rc;
}

} // namespace

bool Statement::step()
{
  const int rc = lone_write(m_statement) ? step_in_transaction(m_statement) : sqlite3_step(m_statement);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    return false;
  }
  throw_sqlite_error(sqlite3_db_handle(m_statement), rc, "running a query");
}

void Statement::run()
{
  while (step()) {
  }
}

void Statement::reset()
{
  sqlite3_reset(m_statement);
  sqlite3_clear_bindings(m_statement);
}

std::int64_t Statement::integer(int column) const
{
  return sqlite3_column_int64(m_statement, column);
}

double Statement::real(int column) const
{
  return sqlite3_column_double(m_statement, column);
}

namespace {

// A column's text through its value, looked up once: sqlite3_column_text and sqlite3_column_bytes
// each find the column again and check the connection's error state, a third of the cost of
// reading a short text (a history reads 200,000). Values returned by sqlite3_column_value are
// unprotected, which matters only to a connection shared between threads: ej never shares one
// (SQLITE_OPEN_NOMUTEX).
std::string_view text_of_column(sqlite3_stmt* statement, int column)
{
  auto* value = sqlite3_column_value(statement, column);
  const auto* data = sqlite3_value_text(value);
  const int size = sqlite3_value_bytes(value);
  return data != nullptr
             ? std::string_view(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size))
             : std::string_view();
}

} // namespace

std::string Statement::text(int column) const
{
  return std::string(text_of_column(m_statement, column));
}

std::string_view Statement::text_view(int column) const
{
  return text_of_column(m_statement, column);
}

std::string Statement::blob(int column) const
{
  const auto* data = sqlite3_column_blob(m_statement, column);
  const int size = sqlite3_column_bytes(m_statement, column);
  return data != nullptr ? std::string(static_cast<const char*>(data), static_cast<std::size_t>(size))
                         : std::string();
}

bool Statement::is_null(int column) const
{
  return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

void configure_sqlite()
{
  // No memory statistics: ej never asks for them, and keeping them takes a global mutex around
  // every allocation SQLite makes (a few percent of a document's render).
  static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)configured;
}

std::string immutable_uri(const std::filesystem::path& path)
{
  std::string uri = "file:";
  for (const char c : path.string()) {
    if (c == '%' || c == '?' || c == '#') {
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

Database Database::open(const std::filesystem::path& path, OpenMode mode)
{
  configure_sqlite();
  sqlite3* db = nullptr;
  int rc = SQLITE_OK;
  if (mode == OpenMode::Immutable) {
    rc = sqlite3_open_v2(immutable_uri(path).c_str(), &db,
                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  } else {
    const int flags =
        mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  }
  Database database(db, path, mode);
  if (rc != SQLITE_OK) {
    throw_sqlite_error(db, rc, "opening the journal");
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms());
  // The -wal and -shm files stay between invocations (SQLite deletes them when the last connection
  // closes, and the next ej pays to make them again), and only a connection that wrote checkpoints
  // at close (WriteTransaction::commit): a reader leaves the file as it found it. A writer's
  // checkpoint at close empties the WAL (journal_size_limit=0), so that the next ej to open the
  // journal has no log to replay, and the database file alone holds every commit between commands.
  int persist = 1;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  // Settings of this connection only: nothing is written to the file. They read the schema,
  // which a full disk can refuse (no room for the -shm), and so can a read-only file system
  // without a -shm beside the file (SQLite cannot create it): the caller's try_read sees that too
  // and reads the file immutable instead.
  const int settings =
      sqlite3_exec(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA journal_size_limit=0",
                   nullptr, nullptr, nullptr);
  const bool no_shm = (mode == OpenMode::ReadWrite && sqlite3_system_errno(db) == ENOSPC) ||
                      (mode != OpenMode::Immutable && (settings & 0xFF) == SQLITE_CANTOPEN &&
                       sqlite3_db_readonly(db, "main") == 1);
  if (settings != SQLITE_OK && !no_shm) {
    throw_sqlite_error(db, settings, "opening the journal");
  }
  return database;
}

void Database::set_busy_timeout(int milliseconds)
{
  sqlite3_busy_timeout(m_db.get(), milliseconds);
}

int Database::set_journal_mode(JournalMode mode)
{
  return sqlite3_exec(m_db.get(),
                      mode == JournalMode::Wal ? "PRAGMA journal_mode=WAL" : "PRAGMA journal_mode=DELETE",
                      nullptr, nullptr, nullptr);
}

int Database::system_errno() const
{
  return sqlite3_system_errno(m_db.get());
}

bool Database::read_only() const
{
  return sqlite3_db_readonly(m_db.get(), "main") == 1;
}

int Database::try_read() const
{
  const int rc = sqlite3_exec(m_db.get(), "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  return rc;
}

Database Database::open_memory()
{
  configure_sqlite();
  sqlite3* db = nullptr;
  const int rc = sqlite3_open(":memory:", &db);
  Database database(db, ":memory:", OpenMode::ReadWrite);
  if (rc != SQLITE_OK) {
    throw_sqlite_error(db, rc, "opening an in-memory database");
  }
  database.exec("PRAGMA foreign_keys=ON");
  return database;
}

void Database::exec(std::string_view sql)
{
  char* message = nullptr;
  const std::string statement(sql);
  const int rc = sqlite3_exec(m_db.get(), statement.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc != SQLITE_OK) {
    throw_sqlite_error(m_db.get(), rc, "updating the journal");
  }
}

std::int64_t Database::last_insert_rowid() const
{
  return sqlite3_last_insert_rowid(m_db.get());
}

std::int64_t Database::changes() const
{
  return sqlite3_changes64(m_db.get());
}

std::int64_t Database::query_integer(std::string_view sql)
{
  auto statement = prepare(sql);
  return statement.step() ? statement.integer(0) : 0;
}

WriteTransaction::WriteTransaction(Database& db) : m_db(db)
{
  m_db.exec("BEGIN IMMEDIATE");
}

WriteTransaction::~WriteTransaction()
{
  if (!m_done) {
    sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void Database::stamp_write()
{
  if (!m_stamped) {
    auto table = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wal_stamp'");
    m_stamped = table.step();
  }
  if (m_stamped) {
    prepare(k_stamp_update).run();
  }
}

void WriteTransaction::commit()
{
  m_db.stamp_write();
  m_db.exec("COMMIT");
  m_done = true;
  sqlite3_db_config(m_db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr); // see Database::open
}

ReadTransaction::ReadTransaction(Database& db) : m_db(db)
{
  m_db.exec("BEGIN DEFERRED");
}

ReadTransaction::~ReadTransaction()
{
  sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr); // nothing was written
}

} // namespace ej::store
