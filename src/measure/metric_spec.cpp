#include "measure/metric_spec.h"

#include "measure/direction.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <utility>

namespace ej::measure {

namespace {

constexpr std::string_view k_example = "--metric 'verify_ms=regex:verify: ([0-9.]+) ms'";

// An argument that is only a stream's name, where no reader's argument could be one: perf stat
// counts no event called stderr, and prints on that stream.
bool names_bare_stream(ExtractorKind kind, std::string_view arg)
{
  return kind == ExtractorKind::PerfStat && (arg == "stderr" || arg == "stdout");
}

bool is_name_start(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_name_char(char c)
{
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

bool is_valid_name(std::string_view name)
{
  if (name.empty() || !is_name_start(name.front())) {
    return false;
  }
  for (char c : name) {
    if (!is_name_char(c)) {
      return false;
    }
  }
  return true;
}

// An unquoted FILE is one that could not be part of a pattern or a key: no blanks and none of
// ()[]{}+|^$\"'@. A glob's '*' and '?' are allowed, except after a regex, where they are the
// pattern's own (a glob there is quoted).
bool looks_like_path(std::string_view text, ExtractorKind kind)
{
  if (text.empty()) {
    return false;
  }
  const std::string_view refused = kind == ExtractorKind::Regex ? std::string_view("()[]{}*+?|^$\\\"'@")
                                                                : std::string_view("()[]{}+|^$\\\"'@");
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || refused.find(c) != std::string_view::npos) {
      return false;
    }
  }
  return true;
}

bool is_escaped(std::string_view raw, std::size_t pos)
{
  std::size_t backslashes = 0;
  while (pos > backslashes && raw[pos - backslashes - 1] == '\\') {
    ++backslashes;
  }
  return backslashes % 2 == 1;
}

struct FileSplit {
  std::size_t at = 0; // the '@' that introduces FILE
  std::string file;
};

// FILE at the end of raw ARG text: '@' then a quoted path ("..." or '...', anything but that
// quote inside: spaces, globs, '@'), or the last unescaped '@' followed by an unquoted path.
std::optional<FileSplit> find_file(std::string_view raw, ExtractorKind kind)
{
  if (raw.size() >= 3 && (raw.back() == '"' || raw.back() == '\'')) {
    const auto open = raw.rfind(raw.back(), raw.size() - 2);
    if (open != std::string_view::npos && open > 0 && raw[open - 1] == '@' && !is_escaped(raw, open - 1) &&
        open + 1 < raw.size() - 1) {
      return FileSplit{open - 1, std::string(raw.substr(open + 1, raw.size() - open - 2))};
    }
  }
  std::optional<std::size_t> last;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      ++i;
    } else if (raw[i] == '@') {
      last = i;
    }
  }
  if (last && looks_like_path(raw.substr(*last + 1), kind)) {
    return FileSplit{*last, std::string(raw.substr(*last + 1))};
  }
  return std::nullopt;
}

// FILE as the grammar reads it back: as it is when it looks like a path, else quoted.
std::string quoted_file(const std::string& file, ExtractorKind kind)
{
  if (looks_like_path(file, kind)) {
    return file;
  }
  const char quote = file.find('"') == std::string::npos ? '"' : '\'';
  return quote + file + quote;
}

// `\@` becomes '@'; other backslash pairs stay as written (they belong to regexes).
std::string unescape_at(std::string_view raw)
{
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      if (raw[i + 1] != '@') {
        out += raw[i];
      }
      out += raw[i + 1];
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

MetricSpec& find_metric(std::vector<MetricSpec>& specs, std::string_view name, std::string_view option)
{
  for (auto& spec : specs) {
    if (spec.name == name) {
      return spec;
    }
  }
  std::string known;
  for (const auto& spec : specs) {
    known += known.empty() ? "" : ", ";
    known += spec.name;
  }
  throw UsageError("{} names metric '{}', which no --metric defines (defined: {})", option, name,
                   known.empty() ? "none" : known);
}

std::pair<std::string_view, std::string_view> split_option(std::string_view option, std::string_view flag,
                                                           std::string_view example)
{
  const auto eq = option.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw UsageError("{} '{}' is not NAME=VALUE: write e.g. {} {}", flag, option, flag, example);
  }
  return {option.substr(0, eq), option.substr(eq + 1)};
}

} // namespace

MetricSpec parse_metric_spec(std::string_view text)
{
  const auto eq = text.find('=');
  if (eq == std::string_view::npos) {
    throw UsageError("metric '{}' is not NAME=KIND[:ARG]: write e.g. {}", text, k_example);
  }
  MetricSpec spec;
  spec.name = std::string(text.substr(0, eq));
  std::string_view rest = text.substr(eq + 1);
  const auto colon = rest.find(':');
  std::string_view kind_text = rest.substr(0, colon);
  std::string raw_arg = colon == std::string_view::npos ? std::string() : std::string(rest.substr(colon + 1));
  // "hyperfine@h.json" is read as "hyperfine:@h.json", and "pytest#median" as "pytest:#median": the
  // grammar's ARG may start with '@' or '#', so the ':' before it may be left out.
  if (const auto at = kind_text.find_first_of("@#"); at != std::string_view::npos) {
    raw_arg = std::string(kind_text.substr(at)) + (colon == std::string_view::npos ? "" : ":" + raw_arg);
    kind_text = kind_text.substr(0, at);
  }
  const auto kind = parse_extractor_kind(kind_text);
  if (!kind) {
    throw UsageError("metric '{}': unknown extractor kind '{}': use one of {} (e.g. {})", spec.name,
                     kind_text, reader_names(), k_example);
  }
  spec.kind = *kind;

  std::string_view arg = raw_arg;
  if (arg.starts_with("stderr:")) {
    spec.from_stderr = true;
    arg.remove_prefix(7);
  } else if (arg.starts_with("stdout:")) {
    arg.remove_prefix(7);
  } else if (names_bare_stream(spec.kind, arg)) {
    // perf stat prints on stderr: 'perf-stat:stderr' is that stream, as 'perf-stat:stderr:' is.
    spec.from_stderr = arg == "stderr";
    arg = {};
  }
  if (auto split = find_file(arg, spec.kind)) {
    spec.file = std::move(split->file);
    arg = arg.substr(0, split->at);
  }
  spec.arg = unescape_at(arg);
  validate_metric_spec(spec);
  return spec;
}

std::optional<FileWithBlanks> find_file_with_blanks(std::string_view text)
{
  // NAME and KIND hold no '@', nor does a stream prefix: the last unescaped '@' of the text is ARG's.
  std::optional<std::size_t> last;
  for (std::size_t i = text.find('='); i != std::string_view::npos && i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      ++i;
    } else if (text[i] == '@') {
      last = i;
    }
  }
  if (!last) {
    return std::nullopt;
  }
  const auto rest = text.substr(*last + 1);
  if (rest.empty() || rest.front() == ' ' || rest.front() == '\t' ||
      rest.find_first_of(" \t") == std::string_view::npos ||
      rest.find_first_of("\"'") != std::string_view::npos) {
    return std::nullopt;
  }
  // A path but for its blanks: what the grammar would have read as FILE without them.
  const auto eq = text.find('=');
  const auto kind = parse_extractor_kind(text.substr(eq + 1, text.find_first_of(":@#", eq + 1) - eq - 1));
  std::string unblanked(rest);
  std::erase_if(unblanked, [](char c) { return c == ' ' || c == '\t'; });
  if (!kind || !looks_like_path(unblanked, *kind)) {
    return std::nullopt;
  }
  FileWithBlanks out{std::string(rest),
                     std::string(text.substr(0, *last + 1)) + '"' + std::string(rest) + '"'};
  if (parse_metric_spec(out.quoted).file != out.file) {
    return std::nullopt;
  }
  return out;
}

MetricSpec parse_metric_option(std::string_view text, const std::filesystem::path& dir)
{
  const auto blanked = find_file_with_blanks(text);
  if (!blanked) {
    return parse_metric_spec(text);
  }
  std::error_code error;
  if (std::filesystem::exists(dir / blanked->file, error)) {
    return parse_metric_spec(blanked->quoted);
  }
  // Its name and kind, from the quoted form: read unquoted, the argument may be refused first
  // ("criterion has no estimate 'median@t/fib 20/e.json'"), which says nothing of the blanks.
  const auto spec = parse_metric_spec(blanked->quoted);
  throw UsageError(
      "metric '{}': the path after '@' holds blanks, so '@{}' is read as part of its {} argument, "
      "not as its file (and no file '{}' is there yet): quote the path to read that file, --metric "
      "'{}', or write '\\@' to keep the '@' in the argument",
      spec.name, blanked->file, to_string(spec.kind), blanked->file, blanked->quoted);
}

void validate_metric_spec(const MetricSpec& spec)
{
  if (!is_valid_name(spec.name)) {
    throw UsageError(
        "metric name '{}' is not valid: start with a letter or '_', then letters, digits, '_', '-' "
        "or '.' (e.g. verify_ms)",
        spec.name);
  }
  if (spec.from_stderr && !spec.file.empty()) {
    throw UsageError("metric '{}' reads both stderr and the file '{}': keep one of 'stderr:' and '@{}'",
                     spec.name, spec.file, spec.file);
  }
  if (const auto check = reader_for(spec.kind).check) {
    check(spec);
  }
}

void check_unit(const MetricSpec& spec)
{
  const auto source = parse_unit(source_unit(spec));
  if (spec.unit.empty() || !source) {
    return; // ej converts when the output says the unit, and labels otherwise
  }
  const auto unit = parse_unit(spec.unit);
  if (!unit) {
    throw UsageError(
        "metric '{}' reads {} in '{}', and ej does not know the unit '{}' to convert them to: use "
        "a unit of the same kind (e.g. {}) or drop --unit",
        spec.name, describe_dimension(*source), source->symbol, spec.unit,
        source->dimension == Dimension::Time ? "ns, us, ms, s" : source->symbol);
  }
  if (!convertible(*source, *unit)) {
    throw UsageError("metric '{}' reads {} in '{}', which does not convert to '{}' ({}): use a unit of the "
                     "same kind (e.g. {}) or drop --unit",
                     spec.name, describe_dimension(*source), source->symbol, spec.unit,
                     describe_dimension(*unit),
                     source->dimension == Dimension::Time ? "ns, us, ms, s" : source->symbol);
  }
}

void apply_unit_option(std::vector<MetricSpec>& specs, std::string_view option)
{
  const auto [name, unit] = split_option(option, "--unit", "tok_s=tok/s");
  auto& spec = find_metric(specs, name, "--unit");
  MetricSpec changed = spec;
  changed.unit = canonical_unit(unit);
  validate_metric_spec(changed);
  check_unit(changed);
  spec = std::move(changed);
}

void apply_better_option(std::vector<MetricSpec>& specs, std::string_view option)
{
  const auto [name, value] = split_option(option, "--better", "tok_s=higher");
  const auto better = parse_better(value);
  if (!better) {
    throw UsageError("--better {}: '{}' is neither 'higher' nor 'lower'", option, value);
  }
  auto& spec = find_metric(specs, name, "--better");
  spec.better = *better;
  spec.better_choice = DirectionChoice::Given;
}

std::string source_unit(const MetricSpec& spec)
{
  const auto unit = reader_for(spec.kind).source_unit;
  return unit == nullptr ? "" : unit(spec);
}

std::string effective_unit(const MetricSpec& spec)
{
  return spec.unit.empty() ? source_unit(spec) : canonical_unit(spec.unit);
}

std::string to_spec_string(const MetricSpec& spec)
{
  std::string arg;
  if (spec.from_stderr) {
    arg += "stderr:";
  } else if (spec.arg.starts_with("stderr:") || spec.arg.starts_with("stdout:") ||
             names_bare_stream(spec.kind, spec.arg)) {
    arg += "stdout:";
  }
  std::string body = spec.arg;
  // Without a file, an '@' that would be read as one must be escaped.
  if (spec.file.empty()) {
    if (const auto split = find_file(body, spec.kind)) {
      body.insert(split->at, 1, '\\');
    }
  }
  arg += body;
  if (!spec.file.empty()) {
    arg += '@';
    arg += quoted_file(spec.file, spec.kind);
  }
  std::string out = spec.name + "=" + std::string(to_string(spec.kind));
  if (!arg.empty()) {
    out += ":" + arg;
  }
  return out;
}

MetricSpec checked_stored_spec(MetricSpec spec)
{
  try {
    validate_metric_spec(spec);
  } catch (const UsageError& error) {
    throw Error("stored metric spec {} is not valid: {}", to_json(spec).dump(), error.what());
  }
  if (spec.better_choice == DirectionChoice::Unrecorded) {
    spec.better_choice = direction_given(spec) ? DirectionChoice::Given : DirectionChoice::Inferred;
  }
  return spec;
}

} // namespace ej::measure
