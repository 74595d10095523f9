#pragma once

#include "measuring/workspace.h"
#include "render/html_report.h"
#include "render/regions.h"
#include "store/journal.h"
#include "store/verdict_cache.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// A plan's document rendered from the journal and merged with what is on disk (`ej plan render`,
// `ej report`, the plan_render tool and the ej://plan/SLUG resources of `ej mcp`).
namespace ej::evidence {

// What becomes of the document's data once rendered. `ej plan render` ends right after: freeing a
// million small blocks would cost a tenth of the command, for memory the exit gives back anyway;
// whatever lives on (ej report's page, the MCP server) frees it.
enum class DataAfterwards { Free, KeepUntilExit };

struct RenderRequest {
  std::string slug;
  std::filesystem::path doc; // absolute and checked (checked_document_path); empty: the plan's own
  std::string template_file; // a Mustache template file; empty: the default
  bool force = false;        // overwrite regions edited by hand
  bool writes = false;       // the document will be written: keep each attempt's verdict line (ej log)
  bool report = false;       // ej report: collect the attempts to explore
  DataAfterwards afterwards = DataAfterwards::Free;
};

struct RenderedPlan {
  std::filesystem::path doc;
  std::filesystem::path chart; // the headline chart: the others are named after it
  std::string relative;        // doc, relative to the work tree root
  std::optional<std::string> existing;
  render::MergeResult merged;
  std::vector<std::pair<std::filesystem::path, std::string>> charts; // every chart and its SVG
  render::ReportData report;                                         // for ej report: the attempts to explore
  std::string title;
  std::vector<store::CachedVerdict> verdict_lines; // for the listings, when the document is written
};

RenderedPlan render_plan(const measuring::Workspace& workspace, store::Journal& journal,
                         const RenderRequest& request);
// Writes the document and its charts, and keeps their region hashes and the verdict lines (tagged
// with the build that made them) in the journal, under its write lock.
void write_document(store::Journal& journal, const RenderedPlan& rendered, const std::string& build_identity);
// Whether the document and every chart on disk are what render_plan made.
bool up_to_date(const RenderedPlan& rendered);
// `ej plan render --json`: {plan, doc, charts, check, up_to_date, written, warnings}.
nlohmann::json render_json(const std::string& slug, const RenderedPlan& rendered, bool check,
                           bool was_up_to_date, bool written);

// A plan document's path (absolute), checked: inside the work tree, not in .git/ or .ej/, and not
// named like its chart. `given` is how the user wrote it and `option` where (--out, --doc), for the
// messages.
std::filesystem::path checked_document_path(const measuring::Workspace& workspace,
                                            const std::filesystem::path& full, std::string_view given,
                                            std::string_view option);
// The work tree root relative form of a document path ("journal/eagle.md"), as plans store it.
std::string repository_relative(const measuring::Workspace& workspace, const std::filesystem::path& full);

} // namespace ej::evidence
