#include "cli/commands.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "core/numbering.h"
#include "evidence/journal_sync.h"
#include "measuring/workspace.h"
#include "store/event_exchange.h"
#include "store/queries.h"
#include "util/base64.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/unique_fd.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/file.h>

// Sharing a journal: sync through git, export and import as JSON lines.
namespace ej::cli {

namespace {

struct SyncCommandOptions {
  std::string remote;
  bool dry_run = false;
  bool json = false;
};

// One sync of a journal at a time (two would publish the same batch twice).
util::UniqueFd lock_sync(const measuring::Workspace& workspace)
{
  util::UniqueFd fd(::open((workspace.ej_dir / "sync.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd) {
    throw Error("cannot create {}: {}", (workspace.ej_dir / "sync.lock").string(), std::strerror(errno));
  }
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    fmt::print(stderr, "ej: another 'ej sync' of this journal is running; waiting for it\n");
    ::flock(fd.get(), LOCK_EX);
  }
  return fd;
}

std::string remote_or_default(const measuring::Workspace& workspace, const std::string& remote)
{
  if (!remote.empty()) {
    return remote;
  }
  const auto common_dir = workspace.ej_dir.parent_path();
  if (auto found = evidence::default_sync_remote(common_dir)) {
    return *found;
  }
  throw UsageError(
      "the repository has no remote to share the journal through: add one (git remote add origin "
      "URL) or name it: ej sync REMOTE");
}

// Batches of other replicas that could not be imported: said at every sync until they come in.
void print_held(const std::vector<evidence::HeldBack>& held)
{
  for (const auto& h : held) {
    fmt::print(stderr,
               "ej: warning: held back {} batch(es) of replica {} (from {}): {}. Everything else was synced; "
               "every sync tries them again (docs/sharing.md says how to get them in or out)\n",
               h.batches, h.replica, h.commit.substr(0, 12), h.why);
  }
}

void run_sync(const SyncCommandOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto remote = remote_or_default(workspace, options.remote);
  const auto lock = lock_sync(workspace);
  const auto report =
      evidence::sync_journal(journal, workspace.ej_dir.parent_path(), {remote, options.dry_run});
  if (options.json) {
    nlohmann::json numbered = nlohmann::json::array();
    for (const auto& n : report.numbered) {
      numbered.push_back(
          {{"kind", n.kind}, {"from", core::number_label(n.from)}, {"to", core::number_label(n.to)}});
    }
    nlohmann::json held = nlohmann::json::array();
    for (const auto& h : report.held) {
      held.push_back({{"replica", h.replica}, {"commit", h.commit}, {"batches", h.batches}, {"why", h.why}});
    }
    print_json(nlohmann::json{{"remote", remote},
                              {"dry_run", options.dry_run},
                              {"sent", report.sent},
                              {"received", report.received},
                              {"replicas", report.replicas},
                              {"unclaimed", report.unclaimed},
                              {"missing_blobs", report.missing_blobs},
                              {"restored", report.restored},
                              {"numbered", numbered},
                              {"held_back", held}});
    return;
  }
  if (options.dry_run) {
    fmt::print("ej sync --dry-run with {}: would send {} event(s), receive {} from {} other replica(s), and "
               "number {} attempt(s) and run(s)\n",
               remote, report.sent, report.received, report.replicas, report.unclaimed);
    if (report.restored > 0) {
      fmt::print("  would bring back {} event(s) this replica had published and its journal lost (an older "
                 "copy put back)\n",
                 report.restored);
    }
    print_held(report.held);
    return;
  }
  fmt::print("synced with {}: sent {} event(s), received {} from {} other replica(s)\n", remote, report.sent,
             report.received, report.replicas);
  for (const auto& n : report.numbered) {
    if (core::is_provisional(n.from)) {
      fmt::print("  {} {} is now {}\n", n.kind, core::number_label(n.from), core::number_label(n.to));
    } else {
      fmt::print("  {} {} is now {}: the shared journal had given that number already\n", n.kind,
                 core::number_label(n.from), core::number_label(n.to));
    }
  }
  if (report.restored > 0) {
    fmt::print(
        "  brought back {} event(s) this replica had published and its journal had lost (an older copy "
        "was put back)\n",
        report.restored);
  }
  print_held(report.held);
  if (report.missing_blobs > 0) {
    fmt::print("  warning: {} stored diff(s) or output(s) named by the events were not published by their "
               "replica yet; the next sync fetches them\n",
               report.missing_blobs);
  }
}

struct ExportOptions {
  std::string plan;
  std::string out;
  bool no_blobs = false;
};

void run_export(const ExportOptions& options)
{
  auto journal = open_journal(measuring::locate_workspace());
  auto& db = journal.db();
  store::ReadTransaction snapshot(db);
  if (!options.plan.empty()) {
    require_plan(journal, options.plan);
  }
  const auto events = options.plan.empty() ? store::all_events(db) : store::plan_events(db, options.plan);
  std::ofstream file;
  if (!options.out.empty()) {
    file.open(options.out, std::ios::binary | std::ios::trunc);
    if (!file) {
      throw Error("cannot write {}: {}", options.out, std::strerror(errno));
    }
  }
  std::ostream& out = options.out.empty() ? std::cout : file;
  for (const auto& event : events) {
    out << store::encode_event(event);
  }
  int blobs = 0;
  if (!options.no_blobs) {
    for (const auto& hash : store::blobs_named(events)) {
      if (const auto content = journal.blob(hash)) {
        out << nlohmann::json{{"blob", hash}, {"base64", util::base64_encode(*content)}}.dump() << '\n';
        ++blobs;
      }
    }
  }
  out.flush();
  if (!out) {
    throw Error("cannot write the export{}: {}", options.out.empty() ? "" : " to " + options.out,
                std::strerror(errno));
  }
  if (!options.out.empty()) {
    fmt::print("exported {} event(s) and {} blob(s) to {}\n", events.size(), blobs, options.out);
  }
}

void run_import(const std::string& path)
{
  std::string text;
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    text = buffer.str();
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      throw Error("cannot read {}: {}", path, std::strerror(errno));
    }
    std::ostringstream buffer;
    buffer << file.rdbuf();
    text = buffer.str();
  }
  // Blob lines first: the events name them.
  std::map<std::string, std::string> blobs;
  std::string event_lines;
  int bad_blobs = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("{\"blob\"", 0) == 0 || line.rfind("{\"base64\"", 0) == 0) {
      const auto parsed = store::parse_bounded(line);
      const auto field = [&](const char* key) {
        const auto it = parsed.is_object() ? parsed.find(key) : parsed.end();
        return it != parsed.end() && it->is_string() ? it->get<std::string>() : std::string();
      };
      const auto content = util::base64_decode(field("base64"));
      if (!content || util::sha256_hex(*content) != field("blob")) {
        ++bad_blobs;
        continue;
      }
      blobs[field("blob")] = *content;
    } else {
      event_lines += line + "\n";
    }
  }
  int bad_lines = 0;
  std::string problem;
  auto events = store::decode_events(event_lines, &bad_lines, &problem);
  if (events.empty() && bad_lines > 0) {
    throw Error("{} holds no ej events ({} line(s) are not event envelopes; among the event lines, {}; see "
                "docs/events.md): nothing imported",
                path, bad_lines, problem);
  }
  auto journal = open_journal(measuring::locate_workspace());
  const auto report = store::import_events(
      journal, std::move(events), [&](const std::string& hash) -> std::optional<std::string> {
        const auto it = blobs.find(hash);
        return it == blobs.end() ? std::nullopt : std::optional(it->second);
      });
  fmt::print("imported {} new event(s) ({} already in the journal), {} blob(s)\n", report.received,
             report.known, report.blobs);
  if (bad_lines + bad_blobs > 0) {
    fmt::print("  warning: {} line(s) were not events or intact blobs and were skipped{}\n",
               bad_lines + bad_blobs,
               problem.empty() ? "" : fmt::format(" (among the event lines, {})", problem));
  }
  if (!report.missing_blobs.empty()) {
    fmt::print("  warning: {} diff(s) or output(s) the events name are not in the file\n",
               report.missing_blobs.size());
  }
}

} // namespace

void register_sharing(CLI::App& app)
{
  auto sync_options = std::make_shared<SyncCommandOptions>();
  auto* sync = app.add_subcommand("sync", "Share the journal through a git remote: publish, fetch and merge");
  sync->footer(
      R"(Each clone writes only its own ref (refs/ej/replicas/<replica-id>) on the remote, so pushes are
always fast-forward; sync imports every other replica's events. Attempts and runs get their shared
numbers here (until then they are shown as @k3f9qx).

Examples:
  ej sync                 # with the branch's upstream remote, else origin
  ej sync backup          # with the remote named backup
  ej sync --dry-run       # say what would move, change nothing)");
  sync->add_option("remote", sync_options->remote,
                   "Remote name or URL (default: upstream remote, else origin)");
  sync->add_flag("--dry-run,-n", sync_options->dry_run, "Say what would move; change nothing");
  sync->add_flag("--json", sync_options->json, "Print the outcome as JSON");
  sync->callback([sync_options] { run_sync(*sync_options); });

  auto export_options = std::make_shared<ExportOptions>();
  auto* exported = app.add_subcommand("export", "Write the journal's events as JSON lines (docs/events.md)");
  exported->footer(R"(Examples:
  ej export > journal.jsonl              # everything, with the diffs and outputs it names
  ej export --plan eagle-fast-verify -o eagle.jsonl)");
  exported->add_option("--plan", export_options->plan, "Only what this plan's history needs");
  exported->add_option("--out,-o", export_options->out, "Write to this file instead of stdout");
  exported->add_flag("--no-blobs", export_options->no_blobs, "Leave out stored diffs and outputs");
  exported->callback([export_options] { run_export(*export_options); });

  auto import_path = std::make_shared<std::string>();
  auto* imported = app.add_subcommand("import", "Add the events of an 'ej export' file (idempotent)");
  imported->add_option("file", *import_path, "The file ('-': stdin)")->required();
  imported->callback([import_path] { run_import(*import_path); });
}

} // namespace ej::cli
