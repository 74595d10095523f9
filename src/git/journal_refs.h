#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// The journal as git carries it between machines. Each replica writes only its own ref,
// refs/ej/replicas/<replica-id>: a chain of commits, each adding one batch of that replica's
// events (events/<batch>.jsonl, immutable) and the blobs they name (blobs/<hh>/<sha256>). Numbers
// are claimed by creating refs/ej/numbers/<kind>/<first>, which git creates at most once. What a
// remote has is fetched into refs/ej/sync/<remote>/..., apart from the replica's own refs.
//
// This layer moves bytes; what an event means is store's business.
namespace ej::git {

// One batch of events to publish: JSON lines, and the blobs they name (sha256 hex, content).
struct OutgoingBatch {
  std::int64_t last_seq = 0; // the journal's local seq of its last event: where the next starts
  std::string events;
  std::vector<std::pair<std::string, std::string>> blobs;
};

// One batch read back from a replica's ref.
struct IncomingBatch {
  std::string commit; // hex id of the commit that added it
  std::int64_t last_seq = 0; // the publishing journal's local seq of its last event
  std::string events;
  std::vector<std::string> blob_hashes;
  // Why the commit is no batch ej wrote (no ej-batch trailer, no events file); empty when it is one.
  std::string problem;
};

// A claim found on the remote: the ref's last part (its first number) and the claim's content.
struct RemoteClaim {
  std::string kind;
  std::int64_t first = 0;
  std::string content;
};

// What a push did with each ref.
struct PushOutcome {
  bool ok = true;                    // every ref was updated
  bool sent = true;                  // false: the push was refused as a whole (nothing changed on the remote)
  std::vector<std::string> rejected; // "refs/...: why"

  bool accepted(const std::string& ref) const
  {
    if (!sent) {
      return false;
    }
    for (const auto& line : rejected) {
      if (line.rfind(ref + ":", 0) == 0) {
        return false;
      }
    }
    return true;
  }
};

class JournalRefs {
public:
  // The repository whose common directory is common_dir.
  explicit JournalRefs(const std::filesystem::path& common_dir);
  ~JournalRefs();
  // Removes lock files under refs/ej/ left by a killed ej; only while holding ej's sync lock.
  static void clear_stale_locks(const std::filesystem::path& common_dir);
  JournalRefs(const JournalRefs&) = delete;
  JournalRefs& operator=(const JournalRefs&) = delete;

  // --- this replica's own ref
  // The last seq the replica's ref holds (0 when it has none).
  std::int64_t published_seq(const std::string& replica);
  void append_batch(const std::string& replica, const OutgoingBatch& batch);
  // The tip of the replica's own ref (hex), nullopt before its first batch.
  std::optional<std::string> own_tip(const std::string& replica);
  // Replaces the replica's own ref by a new chain of these batches (ej purge rewrites what it
  // published), provided the ref is still at expected_tip.
  void replace_batches(const std::string& replica, const std::vector<OutgoingBatch>& batches,
                       const std::string& expected_tip);
  // Removes the copies fetches left of the replica's own ref (refs/ej/sync/*/replicas/<replica>),
  // which would keep batches it replaced reachable.
  void forget_fetched_copies(const std::string& replica);
  // Whether commit descendant is ancestor or has it in its history (both hex).
  bool contains(const std::string& descendant, const std::string& ancestor);
  // The last batch the replica's own ref holds.
  std::optional<IncomingBatch> last_batch(const std::string& replica);

  // --- remotes
  // The remote to sync with when none is named: the current branch's upstream remote, else
  // "origin"; nullopt when the repository has neither.
  std::optional<std::string> default_remote();
  // Whether the repository shares a journal, or is set to: it has a remote to sync with, or
  // journal refs fetched from one or published to one.
  bool shares_journal();
  // Fetches every refs/ej/replicas/* and refs/ej/numbers/* of the remote (a name or a URL), and
  // forgets those it no longer has (a replica ref deleted there is read no more).
  void fetch(const std::string& remote);
  // After fetch: the replicas the remote has and the tip of each (hex).
  std::vector<std::pair<std::string, std::string>> fetched_replicas(const std::string& remote);
  // The batches of a fetched replica ref from its tip back to (not including) stop_at, oldest
  // first; stop_at empty: all of them.
  std::vector<IncomingBatch> batches_between(const std::string& tip, const std::string& stop_at);
  // A blob a batch named, read from the commit that added it.
  std::optional<std::string> batch_blob(const std::string& commit, const std::string& hash);
  // After fetch: every claim the remote has of kind, by first number.
  std::vector<RemoteClaim> fetched_claims(const std::string& remote, const std::string& kind);
  // Pushes this replica's ref (fast-forward, or over what the remote has with replace_own: a ref
  // ej purge rewrote) and creates the claim refs given (never replacing one: a claim that lost the
  // race comes back in rejected).
  PushOutcome push(const std::string& remote, const std::string& replica,
                   const std::vector<RemoteClaim>& claims, bool replace_own = false);

private:
  struct State;
  std::unique_ptr<State> m_state;
};

// The name under which a remote's refs are kept: the remote's name, or "url-" and a hash of a URL.
std::string remote_namespace(const std::string& remote);

} // namespace ej::git
