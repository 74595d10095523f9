#pragma once

#include "git/journal_refs.h"
#include "store/event_exchange.h"
#include "store/journal.h"

#include <map>
#include <string>
#include <vector>

// What `ej sync` takes from the other replicas' refs. A batch that cannot be imported (text that
// is not events or nests too deep, a clock far ahead of every other replica's, an event naming an
// attempt or run this journal does not have) is held back, with the batches its replica published
// after it (they may build on it): everything else is imported, the replica is named, and every
// later sync reads the held batches again (docs/sharing.md).
namespace ej::evidence {

struct HeldBack {
  std::string replica;
  std::string commit; // the first batch held back (the ref's commit that added it)
  int batches = 0;    // it and the replica's batches after it
  std::string why;
};

struct Incoming {
  std::vector<store::Event> events;
  std::map<std::string, std::string> blob_commit; // blob hash -> commit that carries it
  std::map<std::string, std::string> tips;        // replica -> the last batch taken (its commit)
  std::vector<HeldBack> held;
  int replicas = 0; // other replicas the remote has
};

// After a fetch: the batches of every other replica not imported yet and the remote's claims of
// numbers, checked; those that cannot be imported are held back.
Incoming read_incoming(store::Journal& journal, git::JournalRefs& refs, const std::string& remote);

struct IncomingReport {
  store::ImportReport imported;
  std::vector<HeldBack> held;
  int replicas = 0;
};

// Reads and imports in one transaction; a batch with an event that names what neither the journal
// nor the other events have is held back, and the rest imported.
IncomingReport import_incoming(store::Journal& journal, git::JournalRefs& refs, const std::string& remote);

} // namespace ej::evidence
