#pragma once

#include "core/bench_definition.h"
#include "core/references.h"
#include "evidence/plan_render.h"
#include "measuring/run_benchmark.h"
#include "measuring/workspace.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the command line names, read the same way by every command: attempts, runs, paths, sizes,
// the text to store, and the options several commands share.
namespace ej::cli {

// How ej names attempts and runs, and the text it stores: read a floor down, where `ej mcp` reads
// its arguments the same way.
using core::checked_text;
using core::parse_attempt_number;
using core::parse_reference;
using core::parse_run_number;
using core::Reference;
using core::run_reference;

// --keep-untracked-up-to SIZE ("200M", "1G", "4096"): bytes, checked.
std::uint64_t parse_keep_untracked(const std::string& text);

// A path given on the command line: relative to the current directory, as every tool reads it.
std::filesystem::path command_line_path(std::string_view text);

using evidence::checked_document_path; // evidence/plan_render.h
using evidence::repository_relative;

// --param AXIS=V1,V2,... or AXIS=MIN..MAX[:STEP] (ej run, ej bisect); whether the axis and its
// values are the benchmark's is checked when it is read.
std::vector<measuring::ParamChoice> param_choices(const std::vector<std::string>& options);

// Options that several commands take with the same meaning, registered with one wording of their
// help so that `ej X --help` says the same thing for each:
// --json, "Print JSON".
CLI::Option* add_json_flag(CLI::App* command, bool& json);
// The required positional attempt number ("12", "#12").
CLI::Option* add_attempt_id(CLI::App* command, std::string& id);
// The optional positional plan slug (default: the current plan, or the only one).
CLI::Option* add_plan_slug(CLI::App* command, std::string& slug);

} // namespace ej::cli
