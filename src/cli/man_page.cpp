#include "cli/man_page.h"

#include "cli/command_tree.h"
#include "cli/usage.h"
#include "cli/version.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

// Text as roff shows it: backslashes escaped, and no line starting with a control character.
std::string roff(const std::string& text)
{
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) {
      out += "\\&";
    }
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-"; // a real minus, so that searching for an option in man finds it
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string option_synopsis(const CLI::Option& option)
{
  if (option.get_positional()) {
    return "\\fI" + roff(util::to_upper(option.get_name())) + "\\fR";
  }
  std::string names;
  for (const auto& name : option_names(option)) {
    names += (names.empty() ? "" : ", ") + fmt::format("\\fB{}\\fR", roff(name));
  }
  if (takes_value(option)) {
    const auto type = option.get_type_name();
    names += " \\fI" + roff(type.substr(0, type.find(':'))) + "\\fR";
  }
  return names;
}

void write_options(std::string& out, const std::vector<const CLI::Option*>& options)
{
  for (const auto* option : options) {
    out += fmt::format(".TP\n{}\n{}\n", option_synopsis(*option), roff(option->get_description()));
  }
}

void write_command(std::string& out, const CLI::App& app)
{
  const bool leaf = visible_subcommands(app).empty();
  if (leaf) {
    out += fmt::format(".SS \"{} {}\"\n{}\n", roff(command_path(app)), roff(usage_words(app)),
                       roff(app.get_description()));
    std::vector<const CLI::Option*> own;
    for (const auto* option : app.get_options()) {
      if (!option->get_group().empty() && option != app.get_help_ptr()) {
        own.push_back(option);
      }
    }
    write_options(out, own);
    const auto lines = examples(app);
    if (!lines.empty()) {
      out += ".PP\nExamples:\n.RS\n.nf\n";
      for (const auto& line : lines) {
        out += roff(line) + "\n";
      }
      out += ".fi\n.RE\n";
    }
  }
  for (const auto* sub : visible_subcommands(app)) {
    write_command(out, *sub);
  }
}

} // namespace

std::string man_page(const CLI::App& root)
{
  std::string out = fmt::format(".TH EJ 1 \"\" \"{}\" \"User Commands\"\n", roff(version_text()));
  out += ".SH NAME\nej \\- the experiment journal for performance work\n";
  out += ".SH SYNOPSIS\n\\fBej\\fR [\\fB\\-\\-color\\fR \\fIWHEN\\fR] [\\fB\\-\\-no\\-pager\\fR] "
         "\\fICOMMAND\\fR "
         "[\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n";
  out +=
      ".SH DESCRIPTION\n\\fBej\\fR keeps, per git repository, a journal of every optimization attempt: the "
      "hypothesis, the exact command and code version, the measured results, the verdict and the reason. It "
      "runs the registered benchmarks itself, compares runs against the baseline with real statistics, and "
      "renders the plan documents from the journal. \\fBej help\\fR \\fICOMMAND\\fR shows what this page "
      "says about one command.\n";
  out += ".SH OPTIONS\n";
  std::vector<const CLI::Option*> global;
  for (const auto* option : root.get_options()) {
    if (!option->get_positional() && !option->get_group().empty()) {
      global.push_back(option);
    }
  }
  write_options(out, global);
  out += ".SH COMMANDS\n";
  for (const auto* sub : visible_subcommands(root)) {
    write_command(out, *sub);
  }
  out += R"(.SH EXIT STATUS
0 success, 1 an error (\fBej: error: ...\fR on standard error, saying what to do), 2 a usage error
(an unknown command or option, a missing argument).
.SH ENVIRONMENT
.TP
.B EJ_PAGER, PAGER
The pager for long output (\fBlog\fR, \fBshow\fR, \fBwhy\fR) on a terminal; default \fBless\fR with
\fBLESS=FRX\fR unless \fBLESS\fR is set. Empty or \fBcat\fR: no pager.
.TP
.B NO_COLOR
When set and not empty, no colours (unless \fB\-\-color=always\fR).
.TP
.B TERM
\fBdumb\fR: no colours and no pager.
.TP
.B EJ_NOW
Fixes the clock (an ISO 8601 time), for scripted replays.
.TP
.B EJ_BUSY_TIMEOUT_MS
How long a writer waits for a locked journal (default 10000).
.SH FILES
.TP
.I $(git rev-parse \-\-git\-common\-dir)/ej/journal.db
The journal of the repository (SQLite), shared by its linked worktrees.
.SH SEE ALSO
\fBgit\fR(1), \fBhyperfine\fR(1)
)";
  return out;
}

} // namespace ej::cli
