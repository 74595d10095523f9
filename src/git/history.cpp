#include "git/history.h"

#include "git/libgit2.h"
#include "util/error.h"
#include "util/fs.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace ej::git {

namespace {

using ObjectPtr = util::Handle<git_object, git_object_free>;

RepositoryPtr open(const std::filesystem::path& repo_dir)
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr), "open the repository");
  return RepositoryPtr(raw);
}

std::optional<git_oid> commit_of(git_repository* repo, const std::string& revision)
{
  git_object* raw = nullptr;
  if (revision.empty() || git_revparse_single(&raw, repo, revision.c_str()) < 0) {
    return std::nullopt;
  }
  ObjectPtr object(raw);
  git_object* peeled_raw = nullptr;
  if (git_object_peel(&peeled_raw, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  ObjectPtr peeled(peeled_raw);
  return *git_object_id(peeled.get());
}

constexpr std::string_view k_cache_header = "ej first-parent line 1\n";
constexpr std::size_t k_id_size = 40; // hex digits of a SHA-1 id

// The cached line, oldest first: "<id> <time> <subject>" a line. Empty when there is none, or when
// it is not one ej wrote (then it is read again from git and written anew).
std::vector<CommitSummary> read_cache(const std::filesystem::path& cache)
{
  std::optional<std::string> text;
  try {
    text = util::read_file(cache);
  } catch (const Error&) {
    return {}; // unreadable: the line comes from git, as without a cache
  }
  if (!text || !text->starts_with(k_cache_header)) {
    return {};
  }
  std::vector<CommitSummary> line;
  std::string_view rest(*text);
  rest.remove_prefix(k_cache_header.size());
  // Room for as many commits as the text could hold (a line is at least an id, a time and three
  // separators): growing the vector 14 times touched twice its memory, and counting the lines
  // first cost more than that.
  line.reserve(rest.size() / (k_id_size + 4));
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const auto id_end = rest.find(' ');
    if (end == std::string_view::npos || id_end == std::string_view::npos || id_end > end) {
      return {};
    }
    const auto time_end = rest.find(' ', id_end + 1);
    CommitSummary commit;
    if (time_end == std::string_view::npos || time_end > end ||
        std::from_chars(rest.data() + id_end + 1, rest.data() + time_end, commit.time_s).ec != std::errc()) {
      return {};
    }
    commit.id = rest.substr(0, id_end);
    commit.subject = rest.substr(time_end + 1, end - time_end - 1);
    line.push_back(std::move(commit));
    rest.remove_prefix(end + 1);
  }
  return line;
}

void write_cache(const std::filesystem::path& cache, const std::vector<CommitSummary>& line)
{
  std::string text(k_cache_header);
  text.reserve(line.size() * 100);
  for (const auto& commit : line) {
    auto subject = commit.subject;
    std::replace(subject.begin(), subject.end(), '\n', ' ');
    text += commit.id + ' ' + std::to_string(commit.time_s) + ' ' + subject + '\n';
  }
  try {
    util::write_file_atomic(cache, text);
  } catch (const Error&) {
    // Not kept (a repository ej may read but not write): the next read goes to git again.
  }
}

} // namespace

std::vector<CommitSummary> first_parent_history(const std::filesystem::path& repo_dir,
                                                const std::string& revision,
                                                const std::filesystem::path& cache)
{
  const auto repo = open(repo_dir);
  const auto start = commit_of(repo.get(), revision);
  if (!start) {
    throw Error("'{}' names no commit of this repository; give a branch, tag or commit (see git log)",
                revision);
  }
  auto cached = cache.empty() ? std::vector<CommitSummary>() : read_cache(cache);
  const std::size_t cached_size = cached.size();
  // Where a commit is in the cached line: its newest commit is checked first, and the others are
  // indexed only when the walk misses it (the branch moved back, or elsewhere), since a line of
  // 10,000 commits indexed for nothing was a fifth of reading it.
  std::unordered_map<std::string_view, std::size_t> cached_at;
  const auto find_cached = [&](const std::string& id) -> std::optional<std::size_t> {
    if (cached.empty()) {
      return std::nullopt;
    }
    if (cached.back().id == id) {
      return cached.size() - 1;
    }
    if (cached_at.empty()) {
      cached_at.reserve(cached.size());
      for (std::size_t i = 0; i < cached.size(); ++i) {
        cached_at.emplace(cached[i].id, i);
      }
    }
    const auto found = cached_at.find(id);
    return found != cached_at.end() ? std::optional(found->second) : std::nullopt;
  };
  // Parent by parent rather than with a git_revwalk: the walk reads every commit once and the
  // look-up for its subject reads it again, which was a third of `ej history` on 10,000 commits.
  std::vector<CommitSummary> newest_first;
  std::optional<std::size_t> joined; // where the walk met the cached line
  git_oid oid = *start;
  for (;;) {
    auto id = oid_hex(oid);
    if (const auto found = find_cached(id)) {
      joined = found;
      break;
    }
    git_commit* raw = nullptr;
    check(git_commit_lookup(&raw, repo.get(), &oid), "read a commit");
    CommitPtr commit(raw);
    const char* summary = git_commit_summary(commit.get());
    newest_first.push_back({std::move(id), summary != nullptr ? summary : "", git_commit_time(commit.get())});
    if (git_commit_parentcount(commit.get()) == 0) {
      break;
    }
    oid = *git_commit_parent_id(commit.get(), 0);
  }
  cached_at.clear(); // its keys view `cached`, which is cut next
  std::vector<CommitSummary> line;
  if (joined) {
    cached.resize(*joined + 1);
    line = std::move(cached);
  }
  const bool unchanged = newest_first.empty() && joined && *joined + 1 == cached_size;
  line.insert(line.end(), std::make_move_iterator(newest_first.rbegin()),
              std::make_move_iterator(newest_first.rend()));
  if (!cache.empty() && !unchanged) {
    write_cache(cache, line);
  }
  return line;
}

std::optional<std::string> resolve_commit(const std::filesystem::path& repo_dir, const std::string& revision)
{
  const auto repo = open(repo_dir);
  const auto oid = commit_of(repo.get(), revision);
  if (!oid) {
    return std::nullopt;
  }
  return oid_hex(*oid);
}

std::optional<std::string> current_branch(const std::filesystem::path& repo_dir)
{
  const auto repo = open(repo_dir);
  git_reference* raw = nullptr;
  if (git_repository_head(&raw, repo.get()) < 0) {
    return std::nullopt; // no commit yet
  }
  ReferencePtr head(raw);
  if (git_repository_head_detached(repo.get()) == 1 || !git_reference_is_branch(head.get())) {
    return std::nullopt;
  }
  return std::string(git_reference_shorthand(head.get()));
}

} // namespace ej::git
