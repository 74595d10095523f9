#pragma once

// Policies of glibc's allocator for a process that builds a large heap of small blocks at once
// (a million, for a plan document of 10,000 runs). Only policies: nothing else changes, and
// elsewhere than on glibc they do nothing.
namespace ej::util {

// A freed small block is merged at once instead of kept in a "fast bin" to be sorted later.
void prefer_merging_freed_blocks();
// The heap is grown once by a block the kernel may back with 2 MiB pages, then kept.
void prefer_huge_pages();

} // namespace ej::util
