#pragma once

#include "util/handle.h"

#include <git2.h>

#include <string>

// What every user of libgit2 in ej shares: handles that free themselves, the one global init,
// and libgit2 errors turned into ej's error type.
namespace ej::git {

using RepositoryPtr = util::Handle<git_repository, git_repository_free>;
using ReferencePtr = util::Handle<git_reference, git_reference_free>;
using CommitPtr = util::Handle<git_commit, git_commit_free>;
using TreePtr = util::Handle<git_tree, git_tree_free>;
using TreeEntryPtr = util::Handle<git_tree_entry, git_tree_entry_free>;
using TreeBuilderPtr = util::Handle<git_treebuilder, git_treebuilder_free>;
using BlobPtr = util::Handle<git_blob, git_blob_free>;
using SignaturePtr = util::Handle<git_signature, git_signature_free>;
using RemotePtr = util::Handle<git_remote, git_remote_free>;
using DiffPtr = util::Handle<git_diff, git_diff_free>;
using StatusListPtr = util::Handle<git_status_list, git_status_list_free>;

// libgit2 needs one global init per process; this keeps it for the process's lifetime.
void ensure_libgit2();
// "git: cannot DOING: libgit2's message".
[[noreturn]] void throw_git_error(const char* doing);
void check(int rc, const char* doing);
// An object id as its 40 hexadecimal digits.
std::string oid_hex(const git_oid& oid);

} // namespace ej::git
