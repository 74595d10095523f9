#include "git/repository.h"

#include "git/libgit2.h"
#include "git/patch_paths.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <string_view>
#include <thread>

namespace ej::git {

void ensure_libgit2()
{
  static const int initialised = [] {
    const int count = git_libgit2_init();
    // Objects read are not hashed again, as git reads them (it checks hashes in git fsck): the SHA-1
    // of every commit was a fifth of reading a line of 10,000 commits (ej history).
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    return count;
  }();
  (void)initialised;
}

void throw_git_error(const char* doing)
{
  const git_error* error = git_error_last();
  throw Error("git: cannot {}: {}", doing,
              error != nullptr && error->message != nullptr ? error->message : "unknown error");
}

void check(int rc, const char* doing)
{
  if (rc < 0) {
    throw_git_error(doing);
  }
}

std::string oid_hex(const git_oid& oid)
{
  char text[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(text, sizeof text, &oid);
  return text;
}

namespace {

RepositoryPtr open_repository(const std::filesystem::path& path)
{
  ensure_libgit2();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, path.c_str(), 0, nullptr) < 0) {
    return nullptr;
  }
  return RepositoryPtr(repo);
}

int append_diff_line(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line, void* payload)
{
  auto& out = *static_cast<std::string*>(payload);
  if (line->origin == GIT_DIFF_LINE_CONTEXT || line->origin == GIT_DIFF_LINE_ADDITION ||
      line->origin == GIT_DIFF_LINE_DELETION) {
    out += line->origin;
  }
  out.append(line->content, line->content_len);
  return 0;
}

int collect_dirty_submodule(git_submodule* submodule, const char* name, void* payload)
{
  unsigned int status = 0;
  git_repository* owner = git_submodule_owner(submodule);
  if (git_submodule_status(&status, owner, name, GIT_SUBMODULE_IGNORE_NONE) != 0) {
    return 0; // an uninitialised or broken submodule has no work tree to read
  }
  constexpr unsigned int changed = GIT_SUBMODULE_STATUS_WD_MODIFIED | GIT_SUBMODULE_STATUS_WD_INDEX_MODIFIED |
                                   GIT_SUBMODULE_STATUS_WD_WD_MODIFIED | GIT_SUBMODULE_STATUS_WD_UNTRACKED |
                                   GIT_SUBMODULE_STATUS_INDEX_MODIFIED;
  if ((status & changed) != 0 && (status & GIT_SUBMODULE_STATUS_IN_WD) != 0) {
    static_cast<std::vector<std::string>*>(payload)->emplace_back(git_submodule_path(submodule));
  }
  return 0;
}

// The paths of submodules whose work tree differs from what the superproject records.
std::vector<std::string> dirty_submodules(git_repository* repo)
{
  std::vector<std::string> paths;
  git_submodule_foreach(repo, collect_dirty_submodule, &paths);
  std::sort(paths.begin(), paths.end());
  return paths;
}

// A file written while ej reads the work tree (a build, a program writing into it): libgit2 sizes
// it for the diff and finds another size, or no file, when it reads it for the patch.
bool raced_a_writer()
{
  const git_error* error = git_error_last();
  if (error == nullptr || error->message == nullptr) {
    return false;
  }
  const std::string_view message = error->message;
  return message.find("changed before we could read it") != std::string_view::npos ||
         message.find("No such file or directory") != std::string_view::npos;
}

// Appends the patch of `diff` to `out`; false when a file changed while it was read (the caller
// reads the work tree again). Paths with blanks are quoted in its headers, so that the patch applies.
bool print_patch(git_diff* diff, std::string& out, const char* doing)
{
  std::string patch;
  const int rc = git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, append_diff_line, &patch);
  if (rc < 0 && raced_a_writer()) {
    return false;
  }
  check(rc, doing);
  out += quote_blank_header_paths(patch);
  return true;
}

// The untracked files as new-file patches (contents included, binary-safe), as many as the limits
// allow; the others are named, so that what cannot be rebuilt from the journal is said.
// False when a file changed while it was read.
bool append_untracked(git_repository* repo, const std::filesystem::path& work_tree,
                      const UntrackedLimits& limits, CodeState& state)
{
  std::vector<std::string> kept;
  std::uint64_t total = 0;
  state.untracked_left_out.clear();
  state.keep_as_blobs.clear();
  state.context.large_untracked.clear();
  for (const auto& file : state.untracked_files) {
    std::error_code ec;
    const auto path = work_tree / file;
    const auto status = std::filesystem::symlink_status(path, ec);
    const auto size = std::filesystem::is_regular_file(status) ? std::filesystem::file_size(path, ec) : 0;
    if (ec || size > limits.per_file_bytes || total + size > limits.total_bytes) {
      state.untracked_left_out.push_back(file);
      core::LargeUntracked large;
      large.path = file;
      large.size = size;
      large.executable =
          (status.permissions() & std::filesystem::perms::owner_exec) != std::filesystem::perms::none;
      if (!ec && size <= limits.keep_up_to_bytes) {
        state.keep_as_blobs.push_back(file); // hashed as it is stored
      } else if (!ec && size <= limits.hash_up_to_bytes) {
        large.sha256 = util::sha256_file(path).value_or("");
      }
      state.context.large_untracked.push_back(std::move(large));
      continue;
    }
    total += size;
    kept.push_back(file);
  }
  if (!kept.empty()) {
    std::vector<char*> paths;
    for (auto& file : kept) {
      paths.push_back(file.data());
    }
    git_diff_options options;
    git_diff_options_init(&options,
                          GIT_DIFF_OPTIONS_VERSION); // not the macro: clang's -Wmissing-field-initializers
    options.flags = GIT_DIFF_SHOW_BINARY | GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                    GIT_DIFF_SHOW_UNTRACKED_CONTENT | GIT_DIFF_DISABLE_PATHSPEC_MATCH;
    options.pathspec = {paths.data(), paths.size()};
    git_diff* diff_raw = nullptr;
    check(git_diff_index_to_workdir(&diff_raw, repo, nullptr, &options), "read the untracked files");
    DiffPtr diff(diff_raw);
    if (!print_patch(diff.get(), state.diff_text, "print the untracked files")) {
      return false;
    }
    state.changed_files.insert(state.changed_files.end(), kept.begin(), kept.end());
  }
  // Said in the diff too, for whoever reads it (ej show --diff); restores read the context.
  for (const bool stored : {true, false}) {
    std::string list;
    for (const auto& file : state.context.large_untracked) {
      const bool blob = std::find(state.keep_as_blobs.begin(), state.keep_as_blobs.end(), file.path) !=
                        state.keep_as_blobs.end();
      if (blob == stored) {
        list += fmt::format("#   {} ({} bytes)\n", file.path, file.size);
      }
    }
    if (!list.empty()) {
      state.diff_text +=
          stored ? std::string("# untracked files stored whole, apart from this diff:\n")
                 : fmt::format("# untracked files not stored (over {} bytes each or {} bytes in all):\n",
                               limits.per_file_bytes, limits.total_bytes);
      state.diff_text += list;
    }
  }
  return true;
}

CodeState read_work_tree(git_repository* repo, const std::filesystem::path& work_tree,
                         const UntrackedLimits& limits);

// A changed submodule's state, read from its own work tree (its .git names its repository).
CodeState submodule_state(const std::filesystem::path& work_tree)
{
  auto repo = open_repository(work_tree);
  if (!repo) {
    throw Error("the submodule {} has no git repository: run 'git submodule update --init' and try again",
                work_tree.string());
  }
  return read_work_tree(repo.get(), work_tree, UntrackedLimits{});
}

// The code state, or nothing when a file changed while it was read.
std::optional<CodeState> code_state_of(git_repository* repo, const std::filesystem::path& work_tree,
                                       const UntrackedLimits& limits)
{
  CodeState state;

  TreePtr head_tree;
  ReferencePtr head;
  git_reference* head_raw = nullptr;
  const int head_rc = git_repository_head(&head_raw, repo);
  head.reset(head_raw);
  if (head_rc == 0) {
    if (git_reference_is_branch(head.get())) {
      state.context.branch = git_reference_shorthand(head.get());
    }
    git_oid oid;
    check(git_reference_name_to_id(&oid, repo, "HEAD"), "read HEAD");
    state.context.commit = oid_hex(oid);
    git_commit* commit_raw = nullptr;
    check(git_commit_lookup(&commit_raw, repo, &oid), "read the HEAD commit");
    CommitPtr commit(commit_raw);
    git_tree* tree_raw = nullptr;
    check(git_commit_tree(&tree_raw, commit.get()), "read the HEAD tree");
    head_tree.reset(tree_raw);
  } else if (head_rc == GIT_EUNBORNBRANCH) {
    // A repository with no commit yet: everything is a change against the empty tree.
    git_reference* symbolic = nullptr;
    if (git_reference_lookup(&symbolic, repo, "HEAD") == 0) {
      ReferencePtr owned(symbolic);
      const char* target = git_reference_symbolic_target(owned.get());
      if (target != nullptr) {
        std::string name = target;
        const std::string prefix = "refs/heads/";
        state.context.branch = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
      }
    }
  } else {
    throw_git_error("read HEAD");
  }

  git_status_options status_options;
  git_status_options_init(&status_options, GIT_STATUS_OPTIONS_VERSION);
  status_options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  // Submodules are looked at below, one by one: the status of the superproject only sees a
  // submodule's checked-out commit, not the changes inside it.
  status_options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                         GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  git_status_list* status_raw = nullptr;
  check(git_status_list_new(&status_raw, repo, &status_options), "read the work tree status");
  StatusListPtr status(status_raw);
  const auto count = git_status_list_entrycount(status.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_status_entry* entry = git_status_byindex(status.get(), i);
    if (entry->status == GIT_STATUS_CURRENT || (entry->status & GIT_STATUS_IGNORED) != 0) {
      continue;
    }
    // Another ej writing a file here (a render) is no part of this code state.
    if ((entry->status & GIT_STATUS_WT_NEW) != 0 && entry->index_to_workdir != nullptr &&
        util::is_atomic_write_temporary(entry->index_to_workdir->new_file.path)) {
      continue;
    }
    state.context.dirty = true;
    if ((entry->status & GIT_STATUS_WT_NEW) != 0 && entry->index_to_workdir != nullptr) {
      state.untracked_files.emplace_back(entry->index_to_workdir->new_file.path);
      continue;
    }
    const git_diff_delta* delta =
        entry->index_to_workdir != nullptr ? entry->index_to_workdir : entry->head_to_index;
    if (delta != nullptr) {
      std::error_code ec;
      const bool present = std::filesystem::symlink_status(work_tree / delta->new_file.path, ec).type() !=
                           std::filesystem::file_type::not_found;
      (present ? state.changed_files : state.deleted_files).emplace_back(delta->new_file.path);
    }
  }
  const auto submodules = dirty_submodules(repo);
  state.context.dirty = state.context.dirty || !submodules.empty();
  if (!state.context.dirty) {
    return state;
  }

  git_diff_options diff_options;
  git_diff_options_init(&diff_options, GIT_DIFF_OPTIONS_VERSION);
  diff_options.flags = GIT_DIFF_SHOW_BINARY;
  git_diff* diff_raw = nullptr;
  check(git_diff_tree_to_workdir_with_index(&diff_raw, repo, head_tree.get(), &diff_options),
        "compute the diff against HEAD");
  DiffPtr diff(diff_raw);
  if (!print_patch(diff.get(), state.diff_text, "print the diff") ||
      !append_untracked(repo, work_tree, limits, state)) {
    return std::nullopt;
  }
  // Each changed submodule's own state, so that the exact code can be restored.
  for (const auto& path : submodules) {
    const auto inner = submodule_state(work_tree / path);
    state.diff_text += "# submodule " + path + " at " +
                       (inner.context.commit.empty() ? "(no commit)" : inner.context.commit) +
                       (inner.context.dirty ? ", with changes:\n" + inner.diff_text : "\n");
  }
  return state;
}

// The code state, read again while files change under the read, for a moment: a build or a
// program writing into the work tree usually settles within it. Past that, said.
CodeState read_work_tree(git_repository* repo, const std::filesystem::path& work_tree,
                         const UntrackedLimits& limits)
{
  constexpr int k_reads = 5;
  constexpr auto k_pause = std::chrono::milliseconds(100);
  for (int read = 1;; ++read) {
    if (auto state = code_state_of(repo, work_tree, limits)) {
      return std::move(*state);
    }
    if (read == k_reads) {
      const git_error* error = git_error_last();
      const std::string message = error != nullptr && error->message != nullptr ? error->message : "";
      if (message.find("changed before we could read it") == std::string::npos) {
        throw Error("git: cannot print the diff: {}", message); // a file gone for good: as libgit2 says
      }
      throw Error("git: cannot read the work tree {}: files kept changing while ej read them ({}; {} reads, "
                  "{} ms apart). A build or a program writing into the work tree? Let it finish, or add "
                  "what it writes to .gitignore, and try again",
                  work_tree.string(), message, k_reads, k_pause.count());
    }
    std::this_thread::sleep_for(k_pause);
  }
}

} // namespace

CodeState read_code_state(const RepositoryLocation& location, const UntrackedLimits& limits)
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, location.git_dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) < 0) {
    throw_git_error("open the repository");
  }
  RepositoryPtr repo(raw);
  // Where GIT_WORK_TREE (or a GIT_DIR away from its work tree) put it, libgit2 cannot tell alone.
  const char* workdir = git_repository_workdir(repo.get());
  std::error_code ec;
  if (workdir == nullptr || !std::filesystem::equivalent(workdir, location.work_tree, ec)) {
    check(git_repository_set_workdir(repo.get(), location.work_tree.c_str(), 0), "set the work tree");
  }
  auto state = read_work_tree(repo.get(), location.work_tree, limits);
  state.work_tree = location.work_tree;
  return state;
}

} // namespace ej::git
