#include "store/journal.h"
#include "store/journal_reading.h"

#include "store/projection.h"
#include "store/schema.h"
#include "store/visible_payload.h"
#include "store/wal_ownership.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/strings.h"
#include "util/time.h"
#include "util/ulid.h"

#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include <algorithm>

namespace ej::store {

std::optional<std::string> network_filesystem_name(std::uint64_t magic)
{
  switch (magic) {
  case 0x6969:
    return "NFS";
  case 0x0BD00BD0:
    return "Lustre";
  case 0xFF534D42:
    return "CIFS";
  case 0xFE534D42:
    return "SMB2";
  case 0x517B:
    return "SMB";
  case 0x47504653:
    return "GPFS";
  case 0x19830326:
    return "BeeGFS";
  case 0x00C36400:
    return "CephFS";
  case 0x65735546:
    return "FUSE (sshfs, ...)";
  case 0x5346414F:
    return "AFS";
  case 0x013111A8:
    return "IBRIX";
  case 0xA501FCF5:
    return "VxFS";
  default:
    return std::nullopt;
  }
}

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
  bool rebuild = false;
  for (const auto& step : migrations()) {
    if (step.version > locked_version) {
      db.exec(step.sql);
      db.exec(fmt::format("PRAGMA user_version = {}", step.version));
      rebuild = rebuild || (step.rebuilds && locked_version > 0);
    }
  }
  if (rebuild) {
    rebuild_derived_tables(db);
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

std::filesystem::path with_suffix(const std::filesystem::path& file, std::string_view suffix)
{
  auto out = file;
  out += suffix;
  return out;
}

// The high-water mark kept beside the journal: the replica and the last event this machine
// wrote or saw. A journal with fewer events (an older copy of the file or its -wal put back by
// a backup or sync tool) or another replica (a file from another repository) is refused for
// writing until the user decides (ej fsck --accept).
struct HighWaterMark {
  std::string replica;
  std::int64_t seq = 0;
};

std::optional<HighWaterMark> read_mark(const std::filesystem::path& file)
{
  const auto text = util::read_file(with_suffix(file, ".mark"));
  if (!text) {
    return std::nullopt;
  }
  HighWaterMark mark;
  const auto space = text->find(' ');
  if (space == std::string::npos) {
    return std::nullopt;
  }
  mark.replica = text->substr(0, space);
  mark.seq = std::atoll(text->c_str() + space + 1);
  return mark;
}

std::optional<std::string> rewound_reason(Database& db, const std::filesystem::path& file,
                                          const std::string& replica)
{
  const auto mark = read_mark(file);
  if (!mark) {
    return std::nullopt;
  }
  const auto seq = db.query_integer("SELECT coalesce(max(seq), 0) FROM events");
  if (mark->replica != replica) {
    return fmt::format(
        "the journal {} is another journal than the one this machine wrote here (replica {}, ej wrote "
        "replica {}): a file or -wal from another repository was put in place; ej opens it read-only. "
        "Put the right file back, or accept this one with 'ej fsck --accept'",
        file.string(), replica, mark->replica);
  }
  if (seq < mark->seq) {
    return fmt::format(
        "the journal {} went backwards: it holds {} events, but ej had written {} here (an older copy "
        "of the file or of its -wal was put back?); ej opens it read-only. Put the newer file back, or "
        "accept this one as it is with 'ej fsck --accept' (a shared journal then gets back what it had "
        "published at its next 'ej sync')",
        file.string(), seq, mark->seq);
  }
  return std::nullopt;
}

// The names statfs gives file systems where WAL's shared memory is unsafe (it needs one host).
std::optional<std::string> network_filesystem(const std::filesystem::path& dir)
{
  if (const char* assumed = std::getenv("EJ_ASSUME_NETWORK_FS"); assumed != nullptr && *assumed != '\0') {
    return std::string(assumed);
  }
  struct statfs info {};
  if (::statfs(dir.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return network_filesystem_name(static_cast<std::uint64_t>(info.f_type));
}

void refuse_empty_file(const std::filesystem::path& path)
{
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) == 0 && !ec) {
    throw Error(
        "the journal {} is an empty file (0 bytes), not a journal: restore it from a backup, or remove it "
        "and run 'ej init' to start a new one",
        path.string());
  }
}

// Read as the file holds it, where SQLite cannot create the -shm file a WAL read needs (a read-only
// file system, a full disk): SQLite then ignores the -wal, so commits still there are not seen.
Database open_immutable(const std::filesystem::path& path)
{
  const auto wal = with_suffix(path, "-wal");
  if (const auto contents = read_wal(wal); contents && contents->commits > 0) {
    fmt::print(stderr,
               "ej: warning: {} holds {} transaction(s) that SQLite reads only through a -shm file, which "
               "cannot be created beside it here; ej shows the journal without them. Copy {} with its "
               "-wal to a writable place to read them\n",
               wal.string(), contents->commits, path.parent_path().string());
  }
  return Database::open(path, OpenMode::Immutable);
}

Journal open_database(const std::filesystem::path& ej_dir, bool may_create)
{
  const auto path = journal_file(ej_dir);
  if (!may_create) {
    refuse_empty_file(path);
  }
  refuse_foreign_wal(path); // before SQLite replays it
  std::optional<std::string> read_only_reason;
  auto db = Database::open(path, OpenMode::ReadWrite);
  if (db.read_only()) {
    read_only_reason =
        fmt::format("the journal {} cannot be written (the file or its file system is read-only): ej "
                    "reads it, and commands that record something fail until it is writable",
                    path.string());
    if (db.try_read() != SQLITE_OK) {
      db = open_immutable(path); // no -shm can be made beside it
    }
  } else if (db.try_read() != SQLITE_OK && db.system_errno() == ENOSPC) {
    db = open_immutable(path); // the -shm a WAL read needs cannot be made
    read_only_reason =
        fmt::format("the disk holding the journal {} is full: ej reads it, and records nothing until "
                    "space is freed",
                    path.string());
  }
  // Before anything that writes: a file that is not ej's is never touched.
  check_is_ej_journal(db);
  if (const auto damage = util::read_file(damage_marker(path)); damage && !read_only_reason) {
    read_only_reason =
        fmt::format("the journal {} was found damaged ({}); ej writes nothing more to it: run 'ej "
                    "fsck --repair' to rebuild it from its intact events into a new file",
                    path.string(), util::trim(*damage));
  }
  const auto version = static_cast<int>(db.query_integer("PRAGMA user_version"));
  if (version > current_schema_version() && !read_only_reason) {
    // Written by a newer ej: read what we can, never rewrite it.
    read_only_reason = fmt::format(
        "the journal {} was written by a newer ej (schema version {}, this ej knows up to {}); it is open "
        "read-only: upgrade ej to change it",
        path.string(), version, current_schema_version());
    db = Database::open(path, OpenMode::ReadOnly);
  }
  if (read_only_reason) {
    auto replica = load_or_create_replica_id(db, false);
    return {std::move(db), std::move(replica), std::move(read_only_reason)};
  }
  const auto network = network_filesystem(ej_dir);
  if (const int rc = db.set_journal_mode(network ? JournalMode::Rollback : JournalMode::Wal);
      rc != SQLITE_OK) {
    if (db.system_errno() != ENOSPC) {
      throw_sqlite_error(db.handle(), rc, "setting the journal mode");
    }
    // A full disk: read the file as it is.
    auto read_only = open_immutable(path);
    auto replica = load_or_create_replica_id(read_only, false);
    return {
        std::move(read_only), std::move(replica),
        fmt::format(
            "the disk holding the journal {} is full: ej reads it, and records nothing until space is freed",
            path.string())};
  }
  migrate(db, ej_dir);
  auto replica = load_or_create_replica_id(db, true);
  if (network && db.query_integer("SELECT count(*) FROM meta WHERE key = 'network_fs_said'") == 0) {
    fmt::print(stderr,
               "ej: the journal is on a network file system ({}), where SQLite's WAL mode is unsafe: ej uses "
               "its rollback journal with file locks there\n",
               *network);
    WriteTransaction transaction(db);
    db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('network_fs_said', ?)")
        .bind(1, *network)
        .run();
    transaction.commit();
  }
  auto rewound = rewound_reason(db, path, replica);
  return {std::move(db), std::move(replica), std::move(rewound)};
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
  return open_database(ej_dir, true);
}

Journal Journal::open(const std::filesystem::path& ej_dir)
{
  refuse_symlinks(ej_dir);
  std::error_code ec;
  if (!std::filesystem::exists(journal_file(ej_dir), ec)) {
    throw Error("no journal here ({} does not exist); run 'ej init' first", journal_file(ej_dir).string());
  }
  return open_database(ej_dir, false);
}

Journal open_for_reading(const std::filesystem::path& ej_dir)
{
  refuse_symlinks(ej_dir);
  const auto path = journal_file(ej_dir);
  refuse_empty_file(path);
  refuse_foreign_wal(path);
  std::optional<Database> db;
  try {
    db = Database::open(path, OpenMode::ReadOnly);
  } catch (const Error&) {
    // Journal::open says what is wrong, or finds the way in (a read-only mount).
    return Journal::open(ej_dir);
  }
  if (db->try_read() != SQLITE_OK) {
    return Journal::open(ej_dir);
  }
  check_is_ej_journal(*db);
  if (db->query_integer("PRAGMA user_version") < current_schema_version()) {
    return Journal::open(ej_dir); // an older schema is migrated first
  }
  auto replica = load_or_create_replica_id(*db, false);
  if (replica.empty()) {
    return Journal::open(ej_dir);
  }
  return {std::move(*db), std::move(replica),
          fmt::format("the journal {} was opened for reading only (a bug in ej: report it)", path.string())};
}

std::optional<std::string> identity_problem(Journal& journal)
{
  const auto path = journal.db().path();
  if (path.empty() || path == ":memory:") {
    return std::nullopt;
  }
  return rewound_reason(journal.db(), path, journal.replica_id());
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
  update_mark();
}

void Journal::update_mark()
{
  const auto path = m_db.path();
  if (path.empty() || path == ":memory:") {
    return;
  }
  const auto seq = m_db.query_integer("SELECT coalesce(max(seq), 0) FROM events");
  // Best effort after the commit: a mark behind the journal only means less is checked.
  std::ofstream out(with_suffix(path, ".mark"), std::ios::trunc);
  out << m_replica_id << ' ' << seq << '\n';
}

void Journal::accept_as_it_is()
{
  m_read_only_reason.reset();
  update_mark();
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

std::int64_t next_clock(Database& db)
{
  auto highest = db.prepare("SELECT lamport, replica FROM events ORDER BY lamport DESC LIMIT 1");
  if (!highest.step()) {
    return 1;
  }
  if (highest.integer(0) >= k_clock_ceiling - 1) {
    // Only a file changed by hand holds one: every import refuses such clocks.
    throw Error(
        "the journal holds an event of replica {} with the Lamport clock {}, beyond what ej accepts; a "
        "journal file changed outside ej? Check it with 'ej fsck', or start from an export of its "
        "other events",
        highest.text(1), highest.integer(0));
  }
  return highest.integer(0) + 1;
}

bool Journal::has_blob(const std::string& hash)
{
  auto select = m_db.prepare("SELECT 1 FROM blobs WHERE hash = ?");
  select.bind(1, hash);
  return select.step();
}

Event Writer::append(std::string_view type, nlohmann::json payload, std::string id)
{
  auto& db = m_journal.m_db;
  Event event;
  event.time_ms = util::now_ms();
  event.id = id.empty() ? util::make_ulid(event.time_ms) : std::move(id);
  event.replica = m_journal.m_replica_id;
  event.lamport = next_clock(db);
  event.type = std::string(type);
  event.payload = std::move(payload);
  m_journal.redactor().redact_json(event.payload); // nothing secret is ever written
  make_controls_visible(event.payload);
  if (!insert_event(event)) { // a new ULID is always inserted; one chosen before may have been used
    throw Error("the journal has an event {} already: the run it names was recorded before", event.id);
  }
  event.seq = db.last_insert_rowid();
  apply_event(db, event);
  return event;
}

bool Writer::insert_event(const Event& event)
{
  auto& db = m_journal.m_db;
  db.prepare("INSERT OR IGNORE INTO events(id, replica, lamport, type, schema_version, time_ms, payload) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind_all(event.id, event.replica, event.lamport, event.type, event.schema_version, event.time_ms,
                event.payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .run();
  return db.changes() > 0;
}

void Writer::insert_blob_as_is(const std::string& hash, std::string_view content)
{
  m_journal.m_db.prepare("INSERT OR IGNORE INTO blobs(hash, size, content) VALUES (?, ?, ?)")
      .bind(1, hash)
      .bind(2, static_cast<std::int64_t>(content.size()))
      .bind_blob(3, content)
      .run();
}

std::string Writer::put_blob(std::string_view raw)
{
  const auto redacted = m_journal.redactor().redact(raw);
  const std::string_view content = redacted;
  const auto hash = util::sha256_hex(content);
  auto insert = m_journal.m_db.prepare("INSERT OR IGNORE INTO blobs(hash, size, content) VALUES (?, ?, ?)");
  insert.bind(1, hash).bind(2, static_cast<std::int64_t>(content.size())).bind_blob(3, content).run();
  return hash;
}

} // namespace ej::store
