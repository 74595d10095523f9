#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/current_plan.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/version.h"
#include "evidence/document_data.h"
#include "evidence/history_charts.h"
#include "evidence/history_reading.h"
#include "evidence/plan_render.h"
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

struct RenderOptions {
  std::string slug;
  std::string out;
  bool to_stdout = false;
  std::string template_file;
  bool check = false;
  bool force = false;
  bool json = false;
  std::string html;
};

// What evidence::render_plan is asked: --out relative to the current directory (else the plan's own
// path, relative to the work tree root, where plans keep it).
evidence::RenderRequest render_request(const measuring::Workspace& workspace, const RenderOptions& options)
{
  evidence::RenderRequest request;
  request.slug = options.slug;
  if (!options.out.empty()) {
    request.doc = checked_document_path(workspace, command_line_path(options.out), options.out, "--out");
  }
  request.template_file = options.template_file;
  request.force = options.force;
  return request;
}

void run_render(RenderOptions options)
{
  if (options.json && options.to_stdout) {
    throw UsageError("--json and --stdout both say what to print; give one of them");
  }
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  options.slug = choose_plan(journal, options.slug);
  auto request = render_request(workspace, options);
  request.writes = !options.check && !options.to_stdout; // a render that writes keeps the verdict lines
  request.afterwards = evidence::DataAfterwards::KeepUntilExit;
  const auto r = evidence::render_plan(workspace, journal, request);
  for (const auto& warning : r.merged.warnings) {
    fmt::print(stderr, "ej: warning: {}\n", warning);
  }
  if (options.to_stdout) {
    std::fwrite(r.merged.document.data(), 1, r.merged.document.size(), stdout);
    return;
  }
  const bool up_to_date = evidence::up_to_date(r);
  if (options.check) {
    if (options.json) {
      print_json(evidence::render_json(options.slug, r, true, up_to_date, false));
    } else if (up_to_date) {
      fmt::print("{} is up to date\n", r.relative);
    } else {
      fmt::print("{} is not what 'ej plan render {}' would write ({}); run it and commit the result\n",
                 r.relative, options.slug,
                 r.existing && *r.existing == r.merged.document ? "the chart differs"
                                                                : "the document differs");
    }
    if (!up_to_date) {
      throw ExitCode{1};
    }
    return;
  }
  evidence::write_document(journal, r, build_identity());
  if (options.json) {
    print_json(evidence::render_json(options.slug, r, false, up_to_date, true));
    return;
  }
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
  const auto line = evidence::read_line(workspace, "");
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
  auto request = render_request(workspace, options);
  request.writes = false;
  request.report = true; // the attempts to explore in a browser; the data is freed for the page
  auto r = evidence::render_plan(workspace, journal, request);
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
  add_plan_slug(render, options->slug);
  render->add_option(
      "--out", options->out,
      "Document path inside the repository, relative to the current directory (default: the plan's)");
  render->add_flag("--stdout", options->to_stdout, "Print the document instead of writing it");
  render->add_option("--template", options->template_file, "A Mustache template instead of the default");
  render->add_flag("--check", options->check,
                   "Exit 1 when the document on disk is not what render would write");
  render->add_flag("--force", options->force, "Overwrite regions edited by hand");
  render->add_flag("--json", options->json,
                   "Print what was done as JSON: the files, whether they were up to date, whether written");
  render->callback([options] { run_render(*options); });

  auto report_options = std::make_shared<RenderOptions>();
  auto* report_command = app.add_subcommand(
      "report", "Write a self-contained HTML page of a plan: its document and charts, and its "
                "attempts to sort, filter and open in a browser");
  add_plan_slug(report_command, report_options->slug);
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
