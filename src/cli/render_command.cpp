#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/current_plan.h"
#include "cli/lookup.h"
#include "cli/version.h"
#include "evidence/document_data.h"
#include "evidence/history_charts.h"
#include "evidence/history_reading.h"
#include "git/history.h"
#include "measuring/workspace.h"
#include "render/html_report.h"
#include "render/regions.h"
#include "render/template_engine.h"
#include "render/templates.h"
#include "store/document_regions.h"
#include "store/queries.h"
#include "store/verdict_cache.h"
#include "util/allocator.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

// Plan documents: ej plan render, ej report.
namespace ej::cli {

namespace {

constexpr const char* k_default_template = "plan.md.mustache";

struct RenderOptions {
  std::string slug;
  std::string out;
  bool to_stdout = false;
  std::string template_file;
  bool check = false;
  bool force = false;
  std::string html;
};

// The document: --out relative to the current directory, else the plan's own path, relative to
// the work tree root (where plans keep it).
std::filesystem::path document_path(const measuring::Workspace& workspace, const RenderOptions& options,
                                    const std::string& plan_doc)
{
  if (!options.out.empty()) {
    return checked_document_path(workspace, command_line_path(options.out), options.out, "--out");
  }
  return checked_document_path(workspace, workspace.work_tree / plan_doc, plan_doc, "--out");
}

// ej before schema 3 kept the region hashes in ej_dir/documents.json, read-modified-written
// without a lock; they move into the journal the first time a document is rendered.
void import_legacy_hashes(const measuring::Workspace& workspace, store::Journal& journal)
{
  const auto legacy = workspace.ej_dir / "documents.json";
  const auto text = util::read_file(legacy);
  if (!text || journal.read_only_reason()) {
    return;
  }
  nlohmann::json all;
  try {
    all = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception&) {
    all = nlohmann::json::object(); // damaged: every region then counts as edited, said by render
  }
  store::WriteTransaction transaction(journal.db());
  for (const auto& [doc, hashes] : all.items()) {
    if (hashes.is_object() && store::load_document_regions(journal.db(), doc).empty()) {
      store::RegionHashes regions;
      for (const auto& [region, hash] : hashes.items()) {
        if (hash.is_string()) {
          regions.emplace(region, hash.get<std::string>());
        }
      }
      store::save_document_regions(journal.db(), doc, regions);
    }
  }
  transaction.commit();
  std::filesystem::remove(legacy);
}

std::string template_text(const RenderOptions& options, std::string& name)
{
  if (options.template_file.empty()) {
    name = k_default_template;
    return std::string(*render::embedded_template(k_default_template));
  }
  name = options.template_file;
  // Refused before reading: a device (/dev/zero) or a FIFO never ends, and a huge file is no template.
  struct stat info {};
  if (::stat(options.template_file.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) {
      throw Error("the template {} is not a regular file; give a template file to --template",
                  options.template_file);
    }
    if (static_cast<std::uintmax_t>(info.st_size) > render::k_max_template_bytes) {
      throw Error("the template {} is larger than {} KiB, the most a template may be", options.template_file,
                  render::k_max_template_bytes / 1024);
    }
  }
  std::optional<std::string> text;
  try {
    text = util::read_file(options.template_file);
  } catch (const Error& error) {
    throw Error("cannot read the template: {}", error.what());
  }
  if (!text) {
    throw Error(
        "the template {} does not exist; give an existing file to --template, or leave it out for the "
        "default",
        options.template_file);
  }
  if (::access(options.template_file.c_str(), R_OK) != 0) {
    throw Error("the template {} cannot be read; check its permissions", options.template_file);
  }
  if (text->size() > render::k_max_template_bytes) { // grew after the check
    throw Error("the template {} is larger than {} KiB, the most a template may be", options.template_file,
                render::k_max_template_bytes / 1024);
  }
  return *text;
}

struct Rendered {
  std::filesystem::path doc;
  std::filesystem::path chart; // the headline chart: the others are named after it
  std::string relative;
  std::optional<std::string> existing;
  render::MergeResult merged;
  std::vector<std::pair<std::filesystem::path, std::string>> charts; // every chart and its SVG
  render::ReportData report;                                         // for ej report: the attempts to explore
  std::string title;
  std::vector<store::CachedVerdict> verdict_lines; // for the listings, when the document is written
};

// ej plan render renders one document and the process ends: freeing its data (a million small
// blocks) would cost a tenth of the command, for memory the exit gives back anyway (clang's cc1
// skips freeing its AST for the same reason). Kept reachable, so leak checkers do not report it.
// ej report frees it: the HTML page it builds next reuses that memory.
void keep_until_exit(std::optional<evidence::DocumentData>&& data)
{
  static auto* const kept = new std::vector<std::unique_ptr<evidence::DocumentData>>();
  if (data) {
    kept->push_back(std::make_unique<evidence::DocumentData>(std::move(*data)));
  }
}

enum class DataAfterwards { Free, KeepUntilExit };

Rendered render_plan(const measuring::Workspace& workspace, store::Journal& journal,
                     const RenderOptions& options, DataAfterwards afterwards)
{
  util::prefer_merging_freed_blocks();
  util::prefer_huge_pages();
  const auto plan = require_plan(journal, options.slug);
  Rendered out;
  out.title = plan.title;
  out.doc = document_path(workspace, options, plan.doc_path);
  out.relative = repository_relative(workspace, out.doc);
  out.chart = out.doc;
  out.chart.replace_extension(".svg");
  std::string name;
  const auto text = template_text(options, name);
  std::optional<evidence::DocumentData> data;
  // A render that writes keeps each attempt's verdict line for the listings (ej log).
  const auto lines = options.check || options.to_stdout || afterwards == DataAfterwards::Free
                         ? evidence::VerdictLines::Skip
                         : evidence::VerdictLines::Collect;
  {
    store::ReadTransaction snapshot(journal.db());
    // ej report (whose data is freed after) adds the attempts to explore in a browser.
    data = evidence::build_document_data(journal, options.slug, out.chart.filename().string(), lines,
                                         afterwards == DataAfterwards::Free ? evidence::Report::Collect
                                                                            : evidence::Report::Skip);
  }
  out.verdict_lines = std::move(data->verdict_lines);
  render::TemplateOptions template_options;
  template_options.fix_hint = options.template_file.empty() ? "this is a bug in ej's default template"
                                                            : "fix the template or run without --template";
  const auto rendered = render::render_template(
      text, data->data, std::filesystem::path(name).filename().string(), template_options);
  for (auto& chart : data->charts) {
    out.charts.emplace_back(out.doc.parent_path() / chart.file, std::move(chart.svg));
  }
  out.report = std::move(data->report);
  out.existing = util::read_file(out.doc);
  import_legacy_hashes(workspace, journal);
  const auto stored = store::load_document_regions(journal.db(), out.relative);
  out.merged = render::merge_document(out.existing, rendered, stored, options.force, out.relative);
  if (afterwards == DataAfterwards::KeepUntilExit) {
    keep_until_exit(std::move(data));
  }
  return out;
}

void write_document(store::Journal& journal, const Rendered& r)
{
  if (journal.read_only_reason()) {
    throw Error("{}", *journal.read_only_reason());
  }
  std::error_code ec;
  std::vector<std::filesystem::path> paths{r.doc};
  for (const auto& [path, svg] : r.charts) {
    paths.push_back(path);
  }
  for (const auto& path : paths) {
    if (std::filesystem::exists(path, ec) && ::access(path.c_str(), W_OK) != 0) {
      throw Error("{} is read-only; make it writable (chmod u+w) or render elsewhere with --out",
                  path.string());
    }
  }
  std::filesystem::create_directories(r.doc.parent_path(), ec);
  if (ec) {
    throw Error("cannot create {}: {}", r.doc.parent_path().string(), ec.message());
  }
  // The files and their hashes under the journal's write lock: two renders of one document
  // cannot interleave, and renders of different documents never lose each other's hashes.
  store::WriteTransaction transaction(journal.db());
  util::write_file_atomic(r.doc, r.merged.document);
  for (const auto& [path, svg] : r.charts) {
    util::write_file_atomic(path, svg);
  }
  store::save_document_regions(journal.db(), r.relative, r.merged.hashes);
  store::keep_verdicts(journal.db(), build_identity(), r.verdict_lines);
  transaction.commit();
}

void run_render(RenderOptions options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  options.slug = choose_plan(journal, options.slug);
  const auto r = render_plan(workspace, journal, options, DataAfterwards::KeepUntilExit);
  for (const auto& warning : r.merged.warnings) {
    fmt::print(stderr, "ej: warning: {}\n", warning);
  }
  if (options.to_stdout) {
    std::fwrite(r.merged.document.data(), 1, r.merged.document.size(), stdout);
    return;
  }
  if (options.check) {
    const bool doc_ok = r.existing && *r.existing == r.merged.document;
    bool chart_ok = true;
    for (const auto& [path, svg] : r.charts) {
      const auto on_disk = util::read_file(path);
      chart_ok = chart_ok && on_disk && *on_disk == svg;
    }
    if (doc_ok && chart_ok) {
      fmt::print("{} is up to date\n", r.relative);
      return;
    }
    fmt::print("{} is not what 'ej plan render {}' would write ({}); run it and commit the result\n",
               r.relative, options.slug, !doc_ok ? "the document differs" : "the chart differs");
    throw ExitCode{1};
  }
  write_document(journal, r);
  std::vector<std::string> names;
  for (const auto& [path, svg] : r.charts) {
    names.push_back(path.filename().string());
  }
  fmt::print("wrote {} and {}\n", r.relative, util::join(names, ", "));
}

// The plan's benchmarks commit by commit along the current branch: none before the first commit.
std::vector<render::ReportChart> history_charts(const measuring::Workspace& workspace,
                                                store::Journal& journal, const std::string& plan)
{
  if (!git::resolve_commit(workspace.work_tree, "HEAD")) {
    return {};
  }
  const auto line = evidence::read_line(workspace.work_tree, "");
  const auto name = git::current_branch(workspace.work_tree).value_or("HEAD");
  store::ReadTransaction snapshot(journal.db());
  evidence::Reader reader(journal);
  return evidence::plan_history_charts(reader, plan, line, name);
}

void run_report(RenderOptions options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  options.slug = choose_plan(journal, options.slug);
  auto r = render_plan(workspace, journal, options, DataAfterwards::Free);
  r.report.history = history_charts(workspace, journal, options.slug);
  std::map<std::string, std::string> svgs;
  for (const auto& [path, svg] : r.charts) {
    svgs.emplace(path.filename().string(), svg);
  }
  const auto html = render::render_html_report(r.title, r.merged.document, svgs, r.report);
  const auto target = command_line_path(options.html);
  if (std::filesystem::is_directory(target)) {
    throw Error("{} is a directory; give a file name to --html", target.string());
  }
  util::write_file_atomic(target, html);
  fmt::print("wrote {}\n", target.string());
}

} // namespace

void register_render(CLI::App& app, CLI::App& plan)
{
  auto options = std::make_shared<RenderOptions>();
  auto* render =
      plan.add_subcommand("render", "Write the plan's markdown document (and chart) from the journal");
  render->add_option("slug", options->slug, "The plan (default: the current plan, or the only one)");
  render->add_option(
      "--out", options->out,
      "Document path inside the repository, relative to the current directory (default: the plan's)");
  render->add_flag("--stdout", options->to_stdout, "Print the document instead of writing it");
  render->add_option("--template", options->template_file, "A Mustache template instead of the default");
  render->add_flag("--check", options->check,
                   "Exit 1 when the document on disk is not what render would write");
  render->add_flag("--force", options->force, "Overwrite regions edited by hand");
  render->callback([options] { run_render(*options); });

  auto report_options = std::make_shared<RenderOptions>();
  auto* report_command = app.add_subcommand(
      "report", "Write a self-contained HTML page of a plan: its document and charts, and its "
                "attempts to sort, filter and open in a browser");
  report_command->add_option("slug", report_options->slug,
                             "The plan (default: the current plan, or the only one)");
  report_command->add_option("--html", report_options->html, "The HTML file to write")->required();
  report_command->add_option("--template", report_options->template_file,
                             "A Mustache template instead of the default");
  report_command->add_option("--out", report_options->out, "The document whose hand-written text to include");
  report_command->callback([report_options] {
    auto report = *report_options;
    report.force = true; // the report only reads the document: hand edits are shown, never refused
    run_report(report);
  });
}

} // namespace ej::cli
