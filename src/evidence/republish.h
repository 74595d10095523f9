#pragma once

#include "git/journal_refs.h"
#include "store/journal.h"

// A journal put back from an older copy (a backup restored, a file copied over, then accepted
// with 'ej fsck --accept') holds fewer of this replica's events than its ref published, and gives
// its new events the local sequence numbers the published ones had: publishing "what comes after
// the last published one" would skip them for good, and the clones would diverge. Such a journal
// is re-based on its ref: what it published comes back, and what it lacks on the ref is published.
namespace ej::evidence {

// Appends events of this replica, with the blobs they name, to its ref as one batch; last_seq is
// where the next publish counts from.
void append_published(store::Journal& journal, git::JournalRefs& refs,
                      const std::vector<store::Event>& events, std::int64_t last_seq);

// Whether the journal holds the last event its ref published, where the ref says it is.
bool in_step_with_published(store::Journal& journal, git::JournalRefs& refs);

struct Rebased {
  int restored = 0; // published events the journal had lost, imported again
  int sent = 0;     // events of this replica the ref lacked, published now
};

// Imports what the ref published and the journal lacks, then publishes, as one batch, every event
// of this replica the ref lacks (dry_run: only counts them). Afterwards the two are in step.
Rebased rebase_on_published(store::Journal& journal, git::JournalRefs& refs, bool dry_run);

} // namespace ej::evidence
