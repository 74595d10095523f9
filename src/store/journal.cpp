#include "store/journal.h"

#include "store/projection.h"
#include "store/schema.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/strings.h"
#include "util/time.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::store {

std::filesystem::path journal_file(const std::filesystem::path& ej_dir)
{
  return ej_dir / "journal.db";
}

void backup_database(Database& db, const std::filesystem::path& destination)
{
  auto target = Database::open(destination, OpenMode::ReadWrite);
  util::Handle<sqlite3_backup, sqlite3_backup_finish> backup(
    sqlite3_backup_init(target.handle(), "main", db.handle(), "main"));
  if (!backup) {
    throw_sqlite_error(target.handle(), sqlite3_errcode(target.handle()), "backing up the journal");
  }
  const int rc = sqlite3_backup_step(backup.get(), -1);
  if (rc != SQLITE_DONE) {
    throw_sqlite_error(target.handle(), rc, "backing up the journal");
  }
}

void migrate(Database& db, const std::filesystem::path& backup_dir)
{
  const auto version = static_cast<int>(db.query_integer("PRAGMA user_version"));
  if (version >= current_schema_version()) {
    return;
  }
  if (version > 0 && !backup_dir.empty()) {
    backup_database(db, backup_dir / fmt::format("journal.db.backup-v{}", version));
  }
  WriteTransaction transaction(db);
  // Re-read under the write lock: another ej may have migrated meanwhile.
  const auto locked_version = static_cast<int>(db.query_integer("PRAGMA user_version"));
  for (const auto& step : migrations()) {
    if (step.version > locked_version) {
      db.exec(step.sql);
      db.exec(fmt::format("PRAGMA user_version = {}", step.version));
    }
  }
  db.exec(fmt::format("PRAGMA application_id = {}", k_application_id));
  transaction.commit();
}

namespace {

// A SQLite file that is not ej's must never be touched.
void check_is_ej_journal(Database& db)
{
  const auto application_id = db.query_integer("PRAGMA application_id");
  if (application_id == k_application_id) {
    return;
  }
  const auto tables = db.query_integer("SELECT count(*) FROM sqlite_master");
  if (application_id != 0 || tables > 0) {
    throw Error("{} is a SQLite database but not an ej journal; move it away and run 'ej init', or run "
                "'ej fsck' to check it; ej did not change the file",
                db.path().string());
  }
}

std::string load_or_create_replica_id(Database& db, bool may_create)
{
  auto select = db.prepare("SELECT value FROM meta WHERE key = 'replica_id'");
  if (select.step()) {
    return select.text(0);
  }
  if (!may_create) {
    return "";
  }
  const auto id = util::make_ulid(util::now_ms());
  WriteTransaction transaction(db);
  db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('replica_id', ?)").bind(1, id).run();
  transaction.commit();
  auto reread = db.prepare("SELECT value FROM meta WHERE key = 'replica_id'");
  return reread.step() ? reread.text(0) : id;
}

Journal open_database(const std::filesystem::path& ej_dir)
{
  const auto path = journal_file(ej_dir);
  auto db = Database::open(path, OpenMode::ReadWrite);
  check_is_ej_journal(db);
  const auto version = static_cast<int>(db.query_integer("PRAGMA user_version"));
  if (version > current_schema_version()) {
    // Written by a newer ej: read what we can, never rewrite it.
    auto read_only = Database::open(path, OpenMode::ReadOnly);
    std::string reason = fmt::format(
      "the journal {} was written by a newer ej (schema version {}, this ej knows up to {}); it is open "
      "read-only: upgrade ej to change it",
      path.string(), version, current_schema_version());
    auto replica = load_or_create_replica_id(read_only, false);
    return {std::move(read_only), std::move(replica), std::move(reason)};
  }
  migrate(db, ej_dir);
  auto replica = load_or_create_replica_id(db, true);
  return {std::move(db), std::move(replica), std::nullopt};
}

// A journal reached through a symlink is somewhere the user may not know of (another repository's
// journal, a shared disk): ej refuses it rather than write there.
void refuse_symlinks(const std::filesystem::path& ej_dir)
{
  for (const auto& path : {ej_dir, journal_file(ej_dir)}) {
    std::error_code ec;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
      throw Error("{} is a symbolic link (to {}); ej keeps its journal in a real directory: replace the link "
                  "by the directory or file it points to (or move that here), then run ej again",
                  path.string(), std::filesystem::read_symlink(path, ec).string());
    }
  }
}

} // namespace

Journal Journal::create(const std::filesystem::path& ej_dir)
{
  refuse_symlinks(ej_dir);
  std::error_code ec;
  std::filesystem::create_directories(ej_dir, ec);
  if (ec) {
    throw Error("cannot create {}: {}", ej_dir.string(), ec.message());
  }
  return open_database(ej_dir);
}

Journal Journal::open(const std::filesystem::path& ej_dir)
{
  refuse_symlinks(ej_dir);
  std::error_code ec;
  if (!std::filesystem::exists(journal_file(ej_dir), ec)) {
    throw Error("no journal here ({} does not exist); run 'ej init' first", journal_file(ej_dir).string());
  }
  return open_database(ej_dir);
}

Journal Journal::open_memory()
{
  auto db = Database::open_memory();
  migrate(db, {});
  auto replica = load_or_create_replica_id(db, true);
  return {std::move(db), std::move(replica), std::nullopt};
}

void Journal::write(const std::function<void(Writer&)>& fn)
{
  if (m_read_only_reason) {
    throw Error("{}", *m_read_only_reason);
  }
  WriteTransaction transaction(m_db);
  Writer writer(*this);
  fn(writer);
  transaction.commit();
}

std::optional<std::string> Journal::blob(const std::string& hash)
{
  auto select = m_db.prepare("SELECT content FROM blobs WHERE hash = ?");
  select.bind(1, hash);
  if (!select.step()) {
    return std::nullopt;
  }
  return select.blob(0);
}

namespace {

// Text in the journal is shown on terminals and in documents: an ESC or BEL in a title, a reason
// or a line a benchmark printed is stored in its visible form (util::visible_controls). A
// benchmark's definition is what ej executes, byte for byte, and stays as it was given.
void make_controls_visible(nlohmann::json& value)
{
  if (value.is_string()) {
    auto& text = value.get_ref<std::string&>();
    const bool has_control = std::any_of(text.begin(), text.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return (u < 0x20 && u != '\n' && u != '\t') || u == 0x7f || u == 0xc2;
    });
    if (has_control) {
      text = util::visible_controls(text);
    }
  } else if (value.is_array()) {
    for (auto& item : value) {
      make_controls_visible(item);
    }
  } else if (value.is_object()) {
    for (auto& [key, member] : value.items()) {
      if (key != "definition") {
        make_controls_visible(member);
      }
    }
  }
}

} // namespace

Event Writer::append(const std::string& type, nlohmann::json payload)
{
  auto& db = m_journal.m_db;
  Event event;
  event.time_ms = util::now_ms();
  event.id = util::make_ulid(event.time_ms);
  event.replica = m_journal.m_replica_id;
  event.lamport = db.query_integer("SELECT coalesce(max(lamport), 0) + 1 FROM events");
  event.type = type;
  event.payload = std::move(payload);
  m_journal.m_redactor.redact_json(event.payload); // nothing secret is ever written
  make_controls_visible(event.payload);
  auto insert = db.prepare("INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, event.id)
    .bind(2, event.replica)
    .bind(3, event.lamport)
    .bind(4, event.type)
    .bind(5, event.schema_version)
    .bind(6, event.time_ms)
    .bind(7, event.payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
    .run();
  event.seq = db.last_insert_rowid();
  apply_event(db, event);
  return event;
}

std::string Writer::put_blob(std::string_view raw)
{
  const auto redacted = m_journal.m_redactor.redact(raw);
  const std::string_view content = redacted;
  const auto hash = util::sha256_hex(content);
  auto insert = m_journal.m_db.prepare("INSERT OR IGNORE INTO blobs(hash, size, content) VALUES (?, ?, ?)");
  insert.bind(1, hash).bind(2, static_cast<std::int64_t>(content.size())).bind_blob(3, content).run();
  return hash;
}

} // namespace ej::store
