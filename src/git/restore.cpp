#include "git/restore.h"

#include "git/libgit2.h"
#include "git/patch_paths.h"
#include "util/beneath.h"
#include "util/error.h"

#include <git2/apply.h>
#include <git2/sys/mempack.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace ej::git {

namespace {

using IndexPtr = util::Handle<git_index, git_index_free>;
using OdbPtr = util::Handle<git_odb, git_odb_free>;

// The superproject's patch: everything before the first submodule section, without ej's comments.
std::string applicable_part(const std::string& patch, bool& has_submodules)
{
  std::istringstream lines(patch);
  std::string out;
  has_submodules = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# submodule ", 0) == 0) {
      has_submodules = true;
      break;
    }
    if (line.rfind("# ", 0) == 0 || line == "#") {
      continue;
    }
    out += line + "\n";
  }
  return out;
}

// A directory must be empty, or hold only a linked worktree's .git file.
void check_target(const std::filesystem::path& dir)
{
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) {
    std::filesystem::create_directories(dir, error);
    if (error) {
      throw Error("cannot create {}: {}", dir.string(), error.message());
    }
    return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().filename() != ".git" || !entry.is_regular_file()) {
      throw Error("{} is not empty: give a new directory to restore the code into", dir.string());
    }
  }
}

// A path of the tree or the diff that names a .git directory would write into a repository.
bool inside_git_dir(const std::string& path)
{
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    std::string part = path.substr(start, end - start);
    std::transform(part.begin(), part.end(), part.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (part == ".git") {
      return true;
    }
    start = end + 1;
  }
  return false;
}

// A diff that writes beneath a path the commit holds as a symbolic link or a file, without
// removing it first, would write through it (libgit2 would quietly replace the link by a
// directory): refused, naming both. A recorded `git diff` never does that; a crafted one may.
void refuse_writes_through(git_tree* tree, git_diff* diff, const std::string& commit)
{
  std::set<std::string> deleted;
  const auto count = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < count; ++i) {
    const auto* delta = git_diff_get_delta(diff, i);
    if (delta->status == GIT_DELTA_DELETED) {
      deleted.insert(delta->old_file.path);
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const auto* delta = git_diff_get_delta(diff, i);
    if (delta->status == GIT_DELTA_DELETED) {
      continue;
    }
    const std::string path = delta->new_file.path;
    for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
      const auto prefix = path.substr(0, slash);
      git_tree_entry* raw = nullptr;
      if (git_tree_entry_bypath(&raw, tree, prefix.c_str()) != 0) {
        break; // not in the commit: nothing of it beneath either
      }
      TreeEntryPtr entry(raw);
      if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE && deleted.count(prefix) == 0) {
        throw Error("refused to restore {}: {} is a {} in commit {}, and the stored diff writes beneath it; "
                    "the code state cannot be restored",
                    path, prefix,
                    git_tree_entry_filemode(entry.get()) == GIT_FILEMODE_LINK ? "symbolic link" : "file",
                    commit.substr(0, 12));
      }
    }
  }
}

// The commit's tree with the diff applied, as an index held in memory. The blobs the diff makes
// go into an in-memory object store added in front of the repository's.
IndexPtr postimage(git_repository* repo, git_tree* tree, const std::string& part, const std::string& commit)
{
  if (part.find_first_not_of(" \n") == std::string::npos) {
    git_index* raw = nullptr;
    check(git_index_new(&raw), "make an index");
    IndexPtr index(raw);
    check(git_index_read_tree(index.get(), tree), "read the commit's tree");
    return index;
  }
  git_odb* odb_raw = nullptr;
  check(git_repository_odb(&odb_raw, repo), "open the object database");
  OdbPtr odb(odb_raw);
  git_odb_backend* mempack = nullptr;
  check(git_mempack_new(&mempack), "make an in-memory object store");
  check(git_odb_add_backend(odb.get(), mempack, 1000), "add an in-memory object store");
  git_diff* diff_raw = nullptr;
  // Journals written before ej quoted blank paths hold headers libgit2 misreads.
  const auto readable = quote_blank_header_paths(part);
  if (git_diff_from_buffer(&diff_raw, readable.data(), readable.size()) < 0) {
    throw_git_error("read the stored diff");
  }
  DiffPtr diff(diff_raw);
  refuse_writes_through(tree, diff.get(), commit);
  git_apply_options apply;
  git_apply_options_init(&apply,
                         GIT_APPLY_OPTIONS_VERSION); // not the macro: clang's -Wmissing-field-initializers
  git_index* raw = nullptr;
  if (git_apply_to_tree(&raw, repo, tree, diff.get(), &apply) < 0) {
    const git_error* failure = git_error_last();
    throw Error("the stored diff does not apply to commit {}: {}; the code state cannot be restored",
                commit.substr(0, 12),
                failure != nullptr && failure->message ? failure->message : "unknown error");
  }
  return IndexPtr(raw);
}

void write_entry(git_repository* repo, const git_index_entry& entry, util::BeneathWriter& writer)
{
  const std::string path = entry.path;
  if (entry.mode == GIT_FILEMODE_COMMIT) {
    writer.make_directory(path); // a submodule: its directory, empty, as git checks one out
    return;
  }
  git_blob* blob_raw = nullptr;
  check(git_blob_lookup(&blob_raw, repo, &entry.id), "read a file of the code state");
  BlobPtr blob(blob_raw);
  const auto* bytes = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
  if (entry.mode == GIT_FILEMODE_LINK) {
    writer.make_symlink(path, std::string(bytes, size));
    return;
  }
  // As a checkout writes it: the repository's filters (end of line conversion) applied to text.
  // A binary blob is written as it is: git_blob_filter gives it back empty (CHECK_FOR_BINARY).
  git_buf filtered = GIT_BUF_INIT;
  git_blob_filter_options options;
  git_blob_filter_options_init(&options, GIT_BLOB_FILTER_OPTIONS_VERSION);
  const bool converted = git_blob_is_binary(blob.get()) == 0 &&
                         git_blob_filter(&filtered, blob.get(), path.c_str(), &options) == 0;
  const std::string_view content =
      converted ? std::string_view(filtered.ptr, filtered.size) : std::string_view(bytes, size);
  try {
    writer.write_file(path, content, entry.mode == GIT_FILEMODE_BLOB_EXECUTABLE);
  } catch (...) {
    git_buf_dispose(&filtered);
    throw;
  }
  git_buf_dispose(&filtered);
}

} // namespace

RestoreResult restore_code_state(const std::filesystem::path& repo_dir, const CodeToRestore& code,
                                 const ContentOf& content_of, const std::filesystem::path& dir)
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr), "open the repository");
  RepositoryPtr repo(raw);
  git_oid oid;
  git_commit* commit_raw = nullptr;
  if (git_oid_fromstr(&oid, code.commit.c_str()) < 0 ||
      git_commit_lookup(&commit_raw, repo.get(), &oid) < 0) {
    throw Error(
        "the commit {} is not in this repository any more (fetch it, e.g. git fetch origin {}): the code "
        "state cannot be restored",
        code.commit.substr(0, 12), code.commit);
  }
  CommitPtr head(commit_raw);
  git_tree* tree_raw = nullptr;
  check(git_commit_tree(&tree_raw, head.get()), "read the commit's tree");
  TreePtr tree(tree_raw);
  RestoreResult result;
  const auto part = applicable_part(code.patch, result.submodules_skipped);
  const auto index = postimage(repo.get(), tree.get(), part, code.commit);

  // Every path is checked before the first file is written.
  const auto count = git_index_entrycount(index.get());
  for (std::size_t i = 0; i < count; ++i) {
    const auto* entry = git_index_get_byindex(index.get(), i);
    if (inside_git_dir(entry->path)) {
      throw Error("refused to restore {}: the code state writes into a .git directory", entry->path);
    }
  }
  for (const auto& file : code.large_files) {
    if (inside_git_dir(file.path)) {
      throw Error("refused to restore {}: the code state writes into a .git directory", file.path);
    }
  }
  check_target(dir);
  util::BeneathWriter writer(dir);
  for (std::size_t i = 0; i < count; ++i) {
    write_entry(repo.get(), *git_index_get_byindex(index.get(), i), writer);
  }
  for (const auto& file : code.large_files) {
    if (const auto content = content_of(file)) {
      writer.write_file(file.path, *content, file.executable);
    } else {
      result.missing.push_back(file);
    }
  }
  return result;
}

} // namespace ej::git
