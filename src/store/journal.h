#pragma once

#include "core/redact.h"
#include "store/database.h"
#include "store/event.h"
#include "store/events.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace ej::store {

class Journal;

// What a write may do inside its transaction: append events (applied to the derived tables at once)
// and store content-addressed blobs. Queries on journal.db() see the writes made so far.
class Writer {
public:
  explicit Writer(Journal& journal) : m_journal(journal) {}
  // Appends one typed event (store/events.h), the only way commands write events. `id` is the
  // event's ULID when the caller chose it before (a run named before it is recorded: ej run
  // --detach, ej rerun); empty: a new one.
  // (A string is a type name, never a typed event: such calls take the overload below.)
  template <class TypedEvent>
  requires(!std::is_convertible_v<const TypedEvent&, std::string_view>) Event
      append(const TypedEvent& event, std::string id = {})
  {
    if constexpr (requires { event.event_type(); }) {
      return append(event.event_type(), event.payload(), std::move(id));
    } else {
      return append(TypedEvent::type, event.payload(), std::move(id));
    }
  }
  // For events that are not built here: imported from another replica or an export.
  Event append(std::string_view type, nlohmann::json payload, std::string id = {});
  // Stores the bytes once under their sha256 and returns the hash.
  std::string put_blob(std::string_view content);
  // Stores an event as it is, without applying it (an import decides how to); false when the
  // journal has it already.
  bool insert_event(const Event& event);
  // A blob another replica stored, under the hash it has there (the caller checked it).
  void insert_blob_as_is(const std::string& hash, std::string_view content);

private:
  Journal& m_journal;
};

class Journal {
public:
  // Creates ej_dir/journal.db (and ej_dir), or opens it when it already exists.
  static Journal create(const std::filesystem::path& ej_dir);
  // Opens an existing journal, migrating it when it is older than this ej (after a backup).
  static Journal open(const std::filesystem::path& ej_dir);
  static Journal open_memory();

  Database& db() { return m_db; }
  const std::string& replica_id() const { return m_replica_id; }
  // Set when the journal cannot or must not be written (a newer ej wrote it, its file or disk is
  // read-only or full, it was found damaged, it went backwards): every write refuses with it.
  const std::optional<std::string>& read_only_reason() const { return m_read_only_reason; }
  // Accepts a journal that went backwards or changed identity as it is (ej fsck --accept).
  void accept_as_it_is();

  // Runs fn in one BEGIN IMMEDIATE transaction: every event it appends is applied to the derived
  // tables in the same transaction, so a crash leaves all of it or none of it.
  void write(const std::function<void(Writer&)>& fn);

  std::optional<std::string> blob(const std::string& hash);
  bool has_blob(const std::string& hash);

  // Every event payload and blob is redacted with this before it is written: the secret-named
  // variables of ej's environment, and whatever a command adds (ej run --env HF_TOKEN=...).
  // Made at its first use, as a journal is used, from one thread: reading commands never write, and
  // scanning the environment for secrets cost 2% of an `ej show`.
  core::Redactor& redactor()
  {
    if (!m_redactor) {
      m_redactor = core::Redactor::from_environment();
    }
    return *m_redactor;
  }

  Journal(Database db, std::string replica_id, std::optional<std::string> read_only_reason)
      : m_db(std::move(db)), m_replica_id(std::move(replica_id)),
        m_read_only_reason(std::move(read_only_reason))
  {
  }

private:
  friend class Writer;
  void update_mark(); // the high-water mark beside the file, after each commit

  Database m_db;
  std::string m_replica_id;
  std::optional<std::string> m_read_only_reason;
  std::optional<core::Redactor> m_redactor;
};

std::filesystem::path journal_file(const std::filesystem::path& ej_dir);

// The Lamport clock of the next event this journal writes: one more than the highest it holds.
std::int64_t next_clock(Database& db);

// The network file system a statfs f_type names (NFS, Lustre, CIFS, GPFS, CephFS, FUSE...), where
// SQLite's WAL mode is unsafe; nullopt for a local one. EJ_ASSUME_NETWORK_FS=NAME pretends one.
std::optional<std::string> network_filesystem_name(std::uint64_t magic);

// Brings the schema to the current version: numbered steps in one transaction, after a backup of a
// non-empty journal taken with SQLite's backup API. Exposed for the migration tests.
void migrate(Database& db, const std::filesystem::path& backup_dir);
// Copies the whole database to a file with SQLite's online backup API.
void backup_database(Database& db, const std::filesystem::path& destination);

} // namespace ej::store
