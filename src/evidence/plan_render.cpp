#include "evidence/plan_render.h"

#include "evidence/document_data.h"
#include "evidence/lookup.h"
#include "render/template_engine.h"
#include "render/templates.h"
#include "store/document_regions.h"
#include "store/queries.h"
#include "util/allocator.h"
#include "util/error.h"
#include "util/fs.h"

#include <cstdint>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace ej::evidence {

namespace {

constexpr const char* k_default_template = "plan.md.mustache";

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

std::string template_text(const std::string& template_file, std::string& name)
{
  if (template_file.empty()) {
    name = k_default_template;
    return std::string(*render::embedded_template(k_default_template));
  }
  name = template_file;
  // Refused before reading: a device (/dev/zero) or a FIFO never ends, and a huge file is no template.
  struct stat info {};
  if (::stat(template_file.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) {
      throw Error("the template {} is not a regular file; give a template file to --template", template_file);
    }
    if (static_cast<std::uintmax_t>(info.st_size) > render::k_max_template_bytes) {
      throw Error("the template {} is larger than {} KiB, the most a template may be", template_file,
                  render::k_max_template_bytes / 1024);
    }
  }
  std::optional<std::string> text;
  try {
    text = util::read_file(template_file);
  } catch (const Error& error) {
    throw Error("cannot read the template: {}", error.what());
  }
  if (!text) {
    throw Error(
        "the template {} does not exist; give an existing file to --template, or leave it out for the "
        "default",
        template_file);
  }
  if (::access(template_file.c_str(), R_OK) != 0) {
    throw Error("the template {} cannot be read; check its permissions", template_file);
  }
  if (text->size() > render::k_max_template_bytes) { // grew after the check
    throw Error("the template {} is larger than {} KiB, the most a template may be", template_file,
                render::k_max_template_bytes / 1024);
  }
  return *text;
}

// ej plan render renders one document and the process ends: freeing its data (a million small
// blocks) would cost a tenth of the command, for memory the exit gives back anyway (clang's cc1
// skips freeing its AST for the same reason). Kept reachable, so leak checkers do not report it.
// ej report frees it: the HTML page it builds next reuses that memory.
void keep_until_exit(std::optional<DocumentData>&& data)
{
  static auto* const kept = new std::vector<std::unique_ptr<DocumentData>>();
  if (data) {
    kept->push_back(std::make_unique<DocumentData>(std::move(*data)));
  }
}

} // namespace

std::filesystem::path checked_document_path(const measuring::Workspace& workspace,
                                            const std::filesystem::path& full, std::string_view given,
                                            std::string_view option)
{
  const auto root = std::filesystem::weakly_canonical(workspace.work_tree);
  const auto resolved = std::filesystem::weakly_canonical(full);
  const auto relative = resolved.lexically_relative(root);
  if (relative.empty() || *relative.begin() == ".." || relative.is_absolute()) {
    throw Error("the document path {} is outside the repository {}; give a path inside it with {}", given,
                root.string(), option);
  }
  if (*relative.begin() == ".ej" || *relative.begin() == ".git") {
    throw Error("the document path {} is inside .ej/ or .git/; give another path with {}", given, option);
  }
  if (resolved.extension() == ".svg") {
    throw Error("the document path {} ends in .svg, the name of its chart; give a markdown path with {}",
                given, option);
  }
  return resolved;
}

std::string repository_relative(const measuring::Workspace& workspace, const std::filesystem::path& full)
{
  return full.lexically_relative(std::filesystem::weakly_canonical(workspace.work_tree)).generic_string();
}

RenderedPlan render_plan(const measuring::Workspace& workspace, store::Journal& journal,
                         const RenderRequest& options)
{
  util::prefer_merging_freed_blocks();
  util::prefer_huge_pages();
  const auto plan = require_plan(journal, options.slug);
  RenderedPlan out;
  out.title = plan.title;
  out.doc = options.doc.empty() ? checked_document_path(workspace, workspace.work_tree / plan.doc_path,
                                                        plan.doc_path, "--out")
                                : options.doc;
  out.relative = repository_relative(workspace, out.doc);
  out.chart = out.doc;
  out.chart.replace_extension(".svg");
  std::string name;
  const auto text = template_text(options.template_file, name);
  std::optional<DocumentData> data;
  // A render that writes keeps each attempt's verdict line for the listings (ej log).
  const auto lines = options.writes ? VerdictLines::Collect : VerdictLines::Skip;
  {
    store::ReadTransaction snapshot(journal.db());
    // ej report (whose data is freed after) adds the attempts to explore in a browser.
    data = build_document_data(journal, options.slug, out.chart.filename().string(), lines,
                               options.report ? Report::Collect : Report::Skip);
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
  if (options.afterwards == DataAfterwards::KeepUntilExit) {
    keep_until_exit(std::move(data));
  }
  return out;
}

void write_document(store::Journal& journal, const RenderedPlan& r, const std::string& build_identity)
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
  // What the journal holds already is not written again, and a render that changes nothing in it
  // commits nothing: a commit syncs the journal, and so does the checkpoint after it (five
  // fdatasyncs, a tenth of the render of 1,000 attempts on the VM that measures it).
  bool changed = false;
  if (store::load_document_regions(journal.db(), r.relative) != r.merged.hashes) {
    store::save_document_regions(journal.db(), r.relative, r.merged.hashes);
    changed = true;
  }
  changed = store::keep_verdicts(journal.db(), build_identity, r.verdict_lines) > 0 || changed;
  if (changed) {
    transaction.commit();
  }
}

bool up_to_date(const RenderedPlan& r)
{
  if (!r.existing || *r.existing != r.merged.document) {
    return false;
  }
  for (const auto& [path, svg] : r.charts) {
    const auto on_disk = util::read_file(path);
    if (!on_disk || *on_disk != svg) {
      return false;
    }
  }
  return true;
}

nlohmann::json render_json(const std::string& slug, const RenderedPlan& r, bool check, bool was_up_to_date,
                           bool written)
{
  auto charts = nlohmann::json::array();
  for (const auto& [path, svg] : r.charts) {
    charts.push_back((std::filesystem::path(r.relative).parent_path() / path.filename()).generic_string());
  }
  return {{"plan", slug},
          {"doc", r.relative},
          {"charts", charts},
          {"check", check},
          {"up_to_date", was_up_to_date},
          {"written", written},
          {"warnings", r.merged.warnings}};
}

} // namespace ej::evidence
