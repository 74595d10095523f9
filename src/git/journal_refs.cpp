#include "git/journal_refs.h"

#include "git/libgit2.h"
#include "git/remote_auth.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include <fcntl.h>
#include <sys/file.h>

namespace ej::git {

namespace {

constexpr const char* k_last_seq_trailer = "ej-last-seq: ";
constexpr const char* k_batch_trailer = "ej-batch: ";

std::string own_ref(const std::string& replica)
{
  return "refs/ej/replicas/" + replica;
}

git_oid parse_oid(const std::string& text)
{
  git_oid oid;
  check(git_oid_fromstr(&oid, text.c_str()), "read an object id");
  return oid;
}

// The value of a "key: value" line of a commit message.
std::string trailer(const char* message, const char* key)
{
  const std::string text = message != nullptr ? message : "";
  const auto at = text.find(key);
  if (at == std::string::npos) {
    return {};
  }
  const auto start = at + std::string_view(key).size();
  return text.substr(start, text.find('\n', start) - start);
}

std::string batch_name(std::int64_t last_seq)
{
  return fmt::format("{:012}", last_seq);
}

std::vector<std::string> ref_names(git_repository* repo, const std::string& glob)
{
  std::vector<std::string> names;
  git_reference_iterator* raw = nullptr;
  if (git_reference_iterator_glob_new(&raw, repo, glob.c_str()) < 0) {
    return names;
  }
  const char* name = nullptr;
  while (git_reference_next_name(&name, raw) == 0) {
    names.emplace_back(name);
  }
  git_reference_iterator_free(raw);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<git_oid> ref_target(git_repository* repo, const std::string& name)
{
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, name.c_str()) < 0) {
    return std::nullopt;
  }
  return oid;
}

CommitPtr lookup_commit(git_repository* repo, const git_oid& oid)
{
  git_commit* raw = nullptr;
  check(git_commit_lookup(&raw, repo, &oid), "read a journal commit");
  return CommitPtr(raw);
}

TreePtr commit_tree(git_commit* commit)
{
  git_tree* raw = nullptr;
  check(git_commit_tree(&raw, commit), "read a journal commit's tree");
  return TreePtr(raw);
}

std::optional<std::string> read_path(git_repository* repo, git_tree* tree, const std::string& path)
{
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) < 0) {
    return std::nullopt;
  }
  TreeEntryPtr entry(raw);
  git_blob* blob_raw = nullptr;
  check(git_blob_lookup(&blob_raw, repo, git_tree_entry_id(entry.get())), "read a journal file");
  BlobPtr blob(blob_raw);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                     static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

git_oid write_blob(git_repository* repo, std::string_view content)
{
  git_oid oid;
  check(git_blob_create_from_buffer(&oid, repo, content.data(), content.size()), "store a journal file");
  return oid;
}

// A tree builder starting from the tree an entry names (empty when there is no entry).
TreeBuilderPtr builder_from(git_repository* repo, const git_tree_entry* entry)
{
  TreePtr subtree;
  if (entry != nullptr) {
    git_tree* raw = nullptr;
    check(git_tree_lookup(&raw, repo, git_tree_entry_id(entry)), "read a journal tree");
    subtree.reset(raw);
  }
  git_treebuilder* raw = nullptr;
  check(git_treebuilder_new(&raw, repo, subtree.get()), "build a journal tree");
  return TreeBuilderPtr(raw);
}

// A tree builder over the subtree `name` of parent (empty when it has none).
TreeBuilderPtr subtree_builder(git_repository* repo, git_tree* parent, const char* name)
{
  return builder_from(repo, parent != nullptr ? git_tree_entry_byname(parent, name) : nullptr);
}

git_oid write_tree(git_treebuilder* builder)
{
  git_oid oid;
  check(git_treebuilder_write(&oid, builder), "write a journal tree");
  return oid;
}

void insert(git_treebuilder* builder, const std::string& name, const git_oid& oid, git_filemode_t mode)
{
  check(git_treebuilder_insert(nullptr, builder, name.c_str(), &oid, mode), "build a journal tree");
}

SignaturePtr ej_signature()
{
  git_signature* raw = nullptr;
  check(git_signature_now(&raw, "ej", "ej@localhost"), "sign a journal commit");
  return SignaturePtr(raw);
}

RemotePtr open_remote(git_repository* repo, const std::string& remote)
{
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, repo, remote.c_str()) == 0) {
    return RemotePtr(raw);
  }
  if (remote.find('/') == std::string::npos && remote.find(':') == std::string::npos) {
    throw Error("the repository has no remote named '{}'; see 'git remote -v', or give a URL", remote);
  }
  check(git_remote_create_anonymous(&raw, repo, remote.c_str()), "use the remote");
  return RemotePtr(raw);
}

[[noreturn]] void throw_remote_error(const char* doing, const std::string& remote, const RemoteAuth& auth)
{
  if (!auth.refused_host_key.empty()) {
    throw Error("cannot {} {}: {}", doing, remote, auth.refused_host_key);
  }
  const git_error* error = git_error_last();
  const std::string message =
      error != nullptr && error->message != nullptr ? error->message : "unknown error";
  const char* hint = auth.attempts > 1 ? " (no key or credential was accepted: check 'ssh-add -l' or your "
                                         "credential helper)"
                                       : "";
  throw Error("cannot {} {}: {}{}; the journal is unchanged, run 'ej sync' again once it is reachable", doing,
              remote, message, hint);
}

// A remote on this machine's file system, by its URL: its directory.
std::optional<std::filesystem::path> local_remote_path(const std::string& url)
{
  if (url.rfind("file://", 0) == 0) {
    return std::filesystem::path(url.substr(7));
  }
  if (!url.empty() && (url[0] == '/' || url[0] == '.') && url.find("://") == std::string::npos) {
    return std::filesystem::path(url);
  }
  return std::nullopt;
}

// Lock files under refs/ej/ of a repository that nobody holds: left by an ej that was killed
// while it updated a ref. Only called while holding the lock every ej takes for that repository.
void remove_stale_ref_locks(const std::filesystem::path& git_dir)
{
  std::error_code error;
  const auto root = git_dir / "refs" / "ej";
  if (!std::filesystem::exists(root, error)) {
    return;
  }
  std::vector<std::filesystem::path> stale;
  for (auto it = std::filesystem::recursive_directory_iterator(root, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".lock") {
      stale.push_back(it->path());
    }
  }
  for (const auto& path : stale) {
    std::filesystem::remove(path, error);
  }
}

// Every ej pushing to a remote on this file system holds this lock meanwhile (git's own
// receive-pack does the same for ssh and https remotes, on the server).
class LocalRemoteLock {
public:
  explicit LocalRemoteLock(const std::optional<std::filesystem::path>& remote)
  {
    if (!remote) {
      return;
    }
    m_fd = util::UniqueFd(::open((*remote / "ej-push.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666));
    if (m_fd && ::flock(m_fd.get(), LOCK_EX) == 0) {
      remove_stale_ref_locks(*remote);
    }
  }

private:
  util::UniqueFd m_fd;
};

// The remote's answer for each ref (payload: the RemoteAuth every callback of a push shares).
int record_rejection(const char* refname, const char* status, void* payload)
{
  if (status != nullptr) {
    static_cast<RemoteAuth*>(payload)->rejected_refs.push_back(fmt::format("{}: {}", refname, status));
  }
  return 0;
}

} // namespace

struct JournalRefs::State {
  RepositoryPtr repo;
};

std::string remote_namespace(const std::string& remote)
{
  if (remote.find('/') == std::string::npos && remote.find(':') == std::string::npos) {
    return remote;
  }
  return "url-" + util::sha256_hex(remote).substr(0, 12);
}

JournalRefs::JournalRefs(const std::filesystem::path& common_dir) : m_state(std::make_unique<State>())
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  check(git_repository_open(&raw, common_dir.c_str()), "open the repository");
  m_state->repo.reset(raw);
}

void JournalRefs::clear_stale_locks(const std::filesystem::path& common_dir)
{
  remove_stale_ref_locks(common_dir);
}

JournalRefs::~JournalRefs() = default;

std::int64_t JournalRefs::published_seq(const std::string& replica)
{
  const auto tip = ref_target(m_state->repo.get(), own_ref(replica));
  if (!tip) {
    return 0;
  }
  const auto commit = lookup_commit(m_state->repo.get(), *tip);
  const auto value = trailer(git_commit_message(commit.get()), k_last_seq_trailer);
  return value.empty() ? 0 : std::stoll(value);
}

namespace {

// A commit adding one batch on top of parent (none: the first batch): the parent's tree, plus the
// batch's events, its list of blobs and the blobs themselves.
git_oid commit_batch(git_repository* repo, const std::string& replica, git_commit* parent,
                     const OutgoingBatch& batch)
{
  TreePtr parent_tree;
  if (parent != nullptr) {
    parent_tree = commit_tree(parent);
  }
  const auto name = batch_name(batch.last_seq);
  std::string blob_list;
  std::map<std::string, std::vector<std::pair<std::string, git_oid>>> by_prefix;
  for (const auto& [hash, content] : batch.blobs) {
    by_prefix[hash.substr(0, 2)].emplace_back(hash, write_blob(repo, content));
    blob_list += hash + "\n";
  }
  auto events = subtree_builder(repo, parent_tree.get(), "events");
  insert(events.get(), name + ".jsonl", write_blob(repo, batch.events), GIT_FILEMODE_BLOB);
  insert(events.get(), name + ".blobs", write_blob(repo, blob_list), GIT_FILEMODE_BLOB);
  auto blobs = subtree_builder(repo, parent_tree.get(), "blobs");
  for (const auto& [prefix, entries] : by_prefix) {
    auto bucket = builder_from(repo, git_treebuilder_get(blobs.get(), prefix.c_str()));
    for (const auto& [hash, oid] : entries) {
      insert(bucket.get(), hash, oid, GIT_FILEMODE_BLOB);
    }
    insert(blobs.get(), prefix, write_tree(bucket.get()), GIT_FILEMODE_TREE);
  }
  auto top = subtree_builder(repo, nullptr, "");
  insert(top.get(), "events", write_tree(events.get()), GIT_FILEMODE_TREE);
  insert(top.get(), "blobs", write_tree(blobs.get()), GIT_FILEMODE_TREE);
  const auto tree_oid = write_tree(top.get());
  git_tree* tree_raw = nullptr;
  check(git_tree_lookup(&tree_raw, repo, &tree_oid), "read a journal tree");
  TreePtr tree(tree_raw);
  const auto signature = ej_signature();
  const auto message = fmt::format("ej journal events of replica {}\n\n{}{}\n{}{}\n", replica,
                                   k_batch_trailer, name, k_last_seq_trailer, batch.last_seq);
  git_oid commit_oid;
  const git_commit* parents[] = {parent};
  check(git_commit_create(&commit_oid, repo, nullptr, signature.get(), signature.get(), "UTF-8",
                          message.c_str(), tree.get(), parent != nullptr ? 1 : 0,
                          parent != nullptr ? parents : nullptr),
        "write a journal commit");
  return commit_oid;
}

// Compare-and-swap: a second ej of this journal updating the ref at once cannot lose a batch.
void move_ref(git_repository* repo, const std::string& ref, const git_oid& to,
              const std::optional<git_oid>& from, const char* why)
{
  git_reference* out = nullptr;
  const int rc = from ? git_reference_create_matching(&out, repo, ref.c_str(), &to, 1, &*from, why)
                      : git_reference_create(&out, repo, ref.c_str(), &to, 0, why);
  ReferencePtr updated(out);
  check(rc, "update the journal's ref");
}

} // namespace

void JournalRefs::append_batch(const std::string& replica, const OutgoingBatch& batch)
{
  auto* repo = m_state->repo.get();
  const auto ref = own_ref(replica);
  const auto tip = ref_target(repo, ref);
  CommitPtr parent;
  if (tip) {
    parent = lookup_commit(repo, *tip);
  }
  move_ref(repo, ref, commit_batch(repo, replica, parent.get(), batch), tip, "ej sync");
}

std::optional<std::string> JournalRefs::own_tip(const std::string& replica)
{
  const auto tip = ref_target(m_state->repo.get(), own_ref(replica));
  return tip ? std::optional<std::string>(oid_hex(*tip)) : std::nullopt;
}

void JournalRefs::replace_batches(const std::string& replica, const std::vector<OutgoingBatch>& batches,
                                  const std::string& expected_tip)
{
  auto* repo = m_state->repo.get();
  CommitPtr parent;
  for (const auto& batch : batches) {
    const auto oid = commit_batch(repo, replica, parent.get(), batch);
    parent = lookup_commit(repo, oid);
  }
  if (!parent) {
    throw Error("no batch to publish as replica {}", replica);
  }
  move_ref(repo, own_ref(replica), *git_commit_id(parent.get()), parse_oid(expected_tip), "ej purge");
}

void JournalRefs::forget_fetched_copies(const std::string& replica)
{
  auto* repo = m_state->repo.get();
  for (const auto& name : ref_names(repo, "refs/ej/sync/*")) {
    if (name.ends_with("/replicas/" + replica)) {
      git_reference* raw = nullptr;
      if (git_reference_lookup(&raw, repo, name.c_str()) == 0) {
        ReferencePtr reference(raw);
        check(git_reference_delete(reference.get()), "remove a fetched copy of the journal's ref");
      }
    }
  }
}

bool JournalRefs::contains(const std::string& descendant, const std::string& ancestor)
{
  if (descendant == ancestor) {
    return true;
  }
  const auto a = parse_oid(descendant);
  const auto b = parse_oid(ancestor);
  const int rc = git_graph_descendant_of(m_state->repo.get(), &a, &b);
  check(rc < 0 ? rc : 0, "compare two journal commits");
  return rc == 1;
}

std::optional<IncomingBatch> JournalRefs::last_batch(const std::string& replica)
{
  const auto tip = ref_target(m_state->repo.get(), own_ref(replica));
  if (!tip) {
    return std::nullopt;
  }
  const auto commit = lookup_commit(m_state->repo.get(), *tip);
  const auto tree = commit_tree(commit.get());
  const auto name = trailer(git_commit_message(commit.get()), k_batch_trailer);
  IncomingBatch batch;
  batch.commit = oid_hex(*tip);
  batch.events = read_path(m_state->repo.get(), tree.get(), "events/" + name + ".jsonl").value_or("");
  return batch;
}

bool JournalRefs::shares_journal()
{
  if (default_remote()) {
    return true;
  }
  return !ref_names(m_state->repo.get(), "refs/ej/sync/*").empty() ||
         !ref_names(m_state->repo.get(), "refs/ej/replicas/*").empty();
}

std::optional<std::string> JournalRefs::default_remote()
{
  auto* repo = m_state->repo.get();
  git_reference* head_raw = nullptr;
  if (git_repository_head(&head_raw, repo) == 0) {
    ReferencePtr head(head_raw);
    git_buf buffer = GIT_BUF_INIT;
    if (git_reference_is_branch(head.get()) &&
        git_branch_upstream_remote(&buffer, repo, git_reference_name(head.get())) == 0) {
      std::string name(buffer.ptr, buffer.size);
      git_buf_dispose(&buffer);
      return name;
    }
    git_buf_dispose(&buffer);
  }
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, repo, "origin") == 0) {
    git_remote_free(raw);
    return std::string("origin");
  }
  git_error_clear();
  return std::nullopt;
}

void JournalRefs::fetch(const std::string& remote_name)
{
  auto remote = open_remote(m_state->repo.get(), remote_name);
  const auto ns = remote_namespace(remote_name);
  const auto replicas = fmt::format("+refs/ej/replicas/*:refs/ej/sync/{}/replicas/*", ns);
  const auto numbers = fmt::format("+refs/ej/numbers/*:refs/ej/sync/{}/numbers/*", ns);
  char* specs[] = {const_cast<char*>(replicas.c_str()), const_cast<char*>(numbers.c_str())};
  const git_strarray refspecs = {specs, 2};
  // The init functions rather than the macros, whose nested braces leave fields unnamed (clang's
  // -Wmissing-field-initializers).
  git_fetch_options options;
  git_fetch_options_init(&options, GIT_FETCH_OPTIONS_VERSION);
  options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  options.update_fetchhead = 0;
  options.prune = GIT_FETCH_PRUNE;
  RemoteAuth auth;
  auth.url = git_remote_url(remote.get()) != nullptr ? git_remote_url(remote.get()) : remote_name;
  use_user_credentials(options.callbacks, auth);
  if (git_remote_fetch(remote.get(), &refspecs, &options, "ej sync") < 0) {
    throw_remote_error("fetch the journal from", remote_name, auth);
  }
}

std::vector<std::pair<std::string, std::string>> JournalRefs::fetched_replicas(const std::string& remote)
{
  const auto prefix = fmt::format("refs/ej/sync/{}/replicas/", remote_namespace(remote));
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& name : ref_names(m_state->repo.get(), prefix + "*")) {
    if (const auto oid = ref_target(m_state->repo.get(), name)) {
      out.emplace_back(name.substr(prefix.size()), oid_hex(*oid));
    }
  }
  return out;
}

std::vector<IncomingBatch> JournalRefs::batches_between(const std::string& tip, const std::string& stop_at)
{
  auto* repo = m_state->repo.get();
  std::vector<IncomingBatch> batches;
  auto oid = parse_oid(tip);
  while (stop_at.empty() || oid_hex(oid) != stop_at) {
    const auto commit = lookup_commit(repo, oid);
    const auto tree = commit_tree(commit.get());
    const auto name = trailer(git_commit_message(commit.get()), k_batch_trailer);
    IncomingBatch batch;
    batch.commit = oid_hex(oid);
    const auto last_seq = trailer(git_commit_message(commit.get()), k_last_seq_trailer);
    batch.last_seq = last_seq.empty() ? 0 : std::atoll(last_seq.c_str());
    auto events = name.empty() ? std::nullopt : read_path(repo, tree.get(), "events/" + name + ".jsonl");
    if (name.empty()) {
      batch.problem = fmt::format("commit {} has no '{}' line: ej did not write it", batch.commit.substr(0, 12),
                                  std::string_view(k_batch_trailer).substr(0, 8));
    } else if (!events) {
      batch.problem = fmt::format("commit {} has no events/{}.jsonl", batch.commit.substr(0, 12), name);
    }
    batch.events = std::move(events).value_or("");
    const auto list = read_path(repo, tree.get(), "events/" + name + ".blobs").value_or("");
    std::size_t start = 0;
    while (start < list.size()) {
      const auto end = list.find('\n', start);
      batch.blob_hashes.push_back(list.substr(start, end - start));
      start = end == std::string::npos ? list.size() : end + 1;
    }
    batches.push_back(std::move(batch));
    if (git_commit_parentcount(commit.get()) == 0) {
      break;
    }
    oid = *git_commit_parent_id(commit.get(), 0);
  }
  std::reverse(batches.begin(), batches.end());
  return batches;
}

std::optional<std::string> JournalRefs::batch_blob(const std::string& commit_hex, const std::string& hash)
{
  const auto commit = lookup_commit(m_state->repo.get(), parse_oid(commit_hex));
  const auto tree = commit_tree(commit.get());
  return read_path(m_state->repo.get(), tree.get(), "blobs/" + hash.substr(0, 2) + "/" + hash);
}

std::vector<RemoteClaim> JournalRefs::fetched_claims(const std::string& remote, const std::string& kind)
{
  auto* repo = m_state->repo.get();
  const auto prefix = fmt::format("refs/ej/sync/{}/numbers/{}/", remote_namespace(remote), kind);
  std::vector<RemoteClaim> claims;
  for (const auto& name : ref_names(repo, prefix + "*")) {
    const auto oid = ref_target(repo, name);
    if (!oid) {
      continue;
    }
    const auto commit = lookup_commit(repo, *oid);
    const auto tree = commit_tree(commit.get());
    RemoteClaim claim;
    claim.kind = kind;
    claim.first = std::atoll(name.substr(prefix.size()).c_str());
    claim.content = read_path(repo, tree.get(), "claim.json").value_or("");
    claims.push_back(std::move(claim));
  }
  std::sort(claims.begin(), claims.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return claims;
}

PushOutcome JournalRefs::push(const std::string& remote_name, const std::string& replica,
                              const std::vector<RemoteClaim>& claims, bool replace_own)
{
  auto* repo = m_state->repo.get();
  std::vector<std::string> specs;
  if (ref_target(repo, own_ref(replica))) {
    specs.push_back(fmt::format("{0}{1}:{1}", replace_own ? "+" : "", own_ref(replica)));
  }
  // A claim is a commit of its own (no parent), so that creating its ref on the remote can only
  // succeed once: a second claim of the same number is not a fast-forward of the first.
  const auto signature = ej_signature();
  for (const auto& claim : claims) {
    auto builder = subtree_builder(repo, nullptr, "");
    insert(builder.get(), "claim.json", write_blob(repo, claim.content), GIT_FILEMODE_BLOB);
    const auto tree_oid = write_tree(builder.get());
    git_tree* tree_raw = nullptr;
    check(git_tree_lookup(&tree_raw, repo, &tree_oid), "read a journal tree");
    TreePtr tree(tree_raw);
    git_oid commit_oid;
    const auto message = fmt::format("ej claims {} from #{}\n", claim.kind, claim.first);
    check(git_commit_create(&commit_oid, repo, nullptr, signature.get(), signature.get(), "UTF-8",
                            message.c_str(), tree.get(), 0, nullptr),
          "write a claim");
    const auto local = fmt::format("refs/ej/claims/{}/{}", claim.kind, claim.first);
    git_reference* out = nullptr;
    check(git_reference_create(&out, repo, local.c_str(), &commit_oid, 1, "ej sync"), "stage a claim");
    git_reference_free(out);
    specs.push_back(fmt::format("{}:refs/ej/numbers/{}/{}", local, claim.kind, claim.first));
  }
  PushOutcome outcome;
  if (specs.empty()) {
    return outcome;
  }
  auto remote = open_remote(repo, remote_name);
  std::vector<char*> pointers;
  for (auto& spec : specs) {
    pointers.push_back(spec.data());
  }
  const git_strarray refspecs = {pointers.data(), pointers.size()};
  git_push_options options;
  git_push_options_init(&options, GIT_PUSH_OPTIONS_VERSION);
  const LocalRemoteLock remote_lock(
      local_remote_path(git_remote_url(remote.get()) ? git_remote_url(remote.get()) : ""));
  RemoteAuth auth;
  auth.url = git_remote_url(remote.get()) != nullptr ? git_remote_url(remote.get()) : remote_name;
  use_user_credentials(options.callbacks, auth);
  options.callbacks.push_update_reference = record_rejection;
  const int rc = git_remote_push(remote.get(), &refspecs, &options);
  outcome.rejected = auth.rejected_refs;
  const git_error* last_error = git_error_last();
  if (rc < 0 && last_error != nullptr && last_error->klass == GIT_ERROR_REFERENCE) {
    // A claim's ref exists already on the remote (libgit2 sees it is not a fast-forward, or the
    // file transport cannot create it): another replica won the race for those numbers.
    outcome.rejected.push_back(last_error->message != nullptr ? last_error->message : "rejected");
    outcome.sent = false;
  } else if (rc < 0) {
    throw_remote_error("push the journal to", remote_name, auth);
  }
  outcome.ok = outcome.sent && outcome.rejected.empty();
  return outcome;
}

} // namespace ej::git
