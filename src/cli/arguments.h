#pragma once

#include "core/bench_definition.h"
#include "measuring/run_benchmark.h"
#include "measuring/workspace.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the command line names, read the same way by every command: attempts, runs, paths, sizes
// and the text to store.
namespace ej::cli {

// "12" or "#12" -> 12; anything else is a usage error naming the argument.
int parse_attempt_number(std::string_view text);
// Checks user text before it is stored: valid UTF-8, and not empty when required.
std::string checked_text(std::string_view text, std::string_view what, bool allow_empty = true);
// --keep-untracked-up-to SIZE ("200M", "1G", "4096"): bytes, checked.
std::uint64_t parse_keep_untracked(const std::string& text);

// A run: "5", "#5", "r5", "run5", "run:5", or a provisional name ("@k3f9qx", "r@k3f9qx"); anything
// else is a usage error that names the argument.
int parse_run_number(std::string_view text);

// For commands that take an attempt or a run (ej show, ej checkout, ej compare): the run that a
// text with a run prefix names ("r5", "run:5", "run5", "r@k3f9qx"), or nullopt for anything else.
std::optional<int> run_reference(std::string_view text);

// What ej compare names on each side: a run ("r5", "run:5", "r@k3f9qx") or an attempt ("12",
// "#12", "a12", "@k3f9qx"), either ending in ":AXIS=V[,AXIS=V]" to take only those combinations.
struct Reference {
  enum class Kind { Run, Attempt };
  Kind kind = Kind::Attempt;
  int number = 0;
  core::ParamValues selector; // empty: every combination
};
Reference parse_reference(std::string_view text);

// A path given on the command line: relative to the current directory, as every tool reads it.
std::filesystem::path command_line_path(std::string_view text);

// A plan document's path (absolute), checked: inside the work tree, not in .git/ or .ej/, and not
// named like its chart. `given` is how the user wrote it and `option` where (--out, --doc), for the
// messages.
std::filesystem::path checked_document_path(const measuring::Workspace& workspace,
                                            const std::filesystem::path& full, std::string_view given,
                                            std::string_view option);

// The work tree root relative form of a document path ("journal/eagle.md"), as plans store it.
std::string repository_relative(const measuring::Workspace& workspace, const std::filesystem::path& full);

// --param AXIS=V1,V2,... or AXIS=MIN..MAX[:STEP] (ej run, ej bisect); whether the axis and its
// values are the benchmark's is checked when it is read.
std::vector<measuring::ParamChoice> param_choices(const std::vector<std::string>& options);

} // namespace ej::cli
