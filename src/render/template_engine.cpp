#include "render/template_engine.h"

#include "render/frozen_data.h"
#include "render/thaw_ahead.h"

#include "util/error.h"

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <set>

namespace ej::render {

namespace mustache = kainjow::mustache;

namespace {

// The name of the empty section that marks standalone closing-tag lines (see below).
constexpr std::string_view k_line_marker = "ej-standalone-line";

// A value with no children yet: scalars are final, objects and lists are filled in place.
mustache::data shell_of(const nlohmann::json& value)
{
  switch (value.type()) {
  case nlohmann::json::value_t::object:
    return mustache::data{mustache::data::type::object};
  case nlohmann::json::value_t::array:
    return mustache::data{mustache::data::type::list};
  case nlohmann::json::value_t::string:
    return mustache::data{value.get_ref<const std::string&>()};
  case nlohmann::json::value_t::boolean:
    return mustache::data{value.get<bool>()};
  case nlohmann::json::value_t::number_integer:
    return mustache::data{std::to_string(value.get<std::int64_t>())};
  case nlohmann::json::value_t::number_unsigned:
    return mustache::data{std::to_string(value.get<std::uint64_t>())};
  case nlohmann::json::value_t::number_float:
    // fmt's "{}" is the shortest form that reads back to the same double, independent of locale.
    return mustache::data{fmt::format("{}", value.get<double>())};
  case nlohmann::json::value_t::null:
  case nlohmann::json::value_t::discarded:
  case nlohmann::json::value_t::binary:
    break;
  }
  return mustache::data{false};
}

// kainjow's data only copies children in (set, push_back), which made converting a large document's
// data slow: every value was built, copied in and destroyed. Children are therefore moved in as
// empty shells (through operator[] and the list itself) and filled in place; a list is reserved
// first, because kainjow's move constructor is not noexcept and a growing vector would copy.
// (list_value() is const; the data it points into is ours and mutable.)
void fill(mustache::data& target, const nlohmann::json& value)
{
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      auto& child = target[key];
      child = shell_of(item);
      if (item.is_object() || item.is_array()) {
        fill(child, item);
      }
    }
  } else if (value.is_array()) {
    auto& list = const_cast<mustache::basic_list<std::string>&>(target.list_value());
    list.reserve(value.size());
    for (const auto& item : value) {
      list.push_back(shell_of(item));
      if (item.is_object() || item.is_array()) {
        fill(list.back(), item);
      }
    }
  }
}

mustache::data to_mustache(const nlohmann::json& value)
{
  auto root = shell_of(value);
  fill(root, value);
  return root;
}

std::size_t line_of(std::string_view text, std::size_t position)
{
  position = std::min(position, text.size());
  return static_cast<std::size_t>(
             std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(position), '\n')) +
         1;
}

// kainjow says `Unclosed section "attempts" at 312`: turn it into a line number and a message in
// ej's voice (`unclosed section 'attempts'`).
struct ParsedError {
  std::string message;
  std::optional<std::size_t> position;
};

ParsedError parse_kainjow_error(const std::string& message)
{
  ParsedError out;
  std::string text = message;
  const auto at = text.rfind(" at ");
  if (at != std::string::npos) {
    std::size_t position = 0;
    const char* first = text.data() + at + 4;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, position);
    if (error == std::errc{} && end == last) {
      out.position = position;
      text.erase(at);
    }
  }
  std::replace(text.begin(), text.end(), '"', '\'');
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  out.message = text;
  return out;
}

// The line of the first tag naming `name` ({{name}}, {{#name}}, {{> name}}...) with the default
// delimiters, for errors kainjow reports without a position.
std::optional<std::size_t> find_tag_line(std::string_view text, std::string_view name)
{
  for (auto open = text.find("{{"); open != std::string_view::npos; open = text.find("{{", open + 2)) {
    auto i = open + 2;
    while (i < text.size() && std::string_view("{#^/&>! \t").find(text[i]) != std::string_view::npos) {
      ++i;
    }
    if (text.substr(i, name.size()) != name) {
      continue;
    }
    i += name.size();
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      ++i;
    }
    if (i < text.size() && text[i] == '}') {
      return line_of(text, open);
    }
  }
  return std::nullopt;
}

std::string where(std::string_view template_name, std::optional<std::size_t> line)
{
  if (line) {
    return fmt::format("template {}, line {}", template_name, *line);
  }
  return fmt::format("template {}", template_name);
}

// Thrown out of kainjow's render when a bound is passed, caught in render_template.
struct TooMuchWork {};
struct TooMuchOutput {};

// Resolves partials from the options (not from the data, as kainjow does by default) and remembers
// what could not be resolved, so that render_template can fail instead of printing nothing. A
// frozen item (frozen_data.h) is thawed when a section enters it and dropped when it leaves.
class Context : public mustache::context<std::string> {
public:
  Context(const mustache::data* data, const std::map<std::string, mustache::data>& partials,
          std::size_t max_lookups)
      : mustache::context<std::string>(data), m_partials(partials), m_max_lookups(max_lookups)
  {
  }

  const mustache::data* get(const std::string& name) const override
  {
    // Every tag expanded looks a name up: counting lookups bounds a section repeated inside
    // itself, which multiplies the work even when it writes nothing.
    if (++m_lookups > m_max_lookups) {
      throw TooMuchWork{};
    }
    if (name == k_line_marker) {
      return nullptr; // in no data: looking for it level by level would cost a walk per line
    }
    const auto* found = mustache::context<std::string>::get(name);
    if (found == nullptr && m_unknown_names.size() < 100) {
      m_unknown_names.insert(name);
    }
    if (found != nullptr && found->is_list()) {
      thaw_ahead(found->list_value());
    }
    return found;
  }

  void push(const mustache::data* data) override
  {
    const auto* frozen = frozen_bytes(*data);
    Pushed pushed = Pushed::Data;
    if (frozen != nullptr) {
      auto thawed = m_thaw_ahead ? m_thaw_ahead->take(data) : nullptr;
      pushed = thawed ? Pushed::ThawedAhead : Pushed::ThawedHere;
      m_thawed.push_back(thawed ? std::move(thawed) : std::make_unique<mustache::data>(thaw(*frozen)));
      data = m_thawed.back().get();
    }
    m_pushed.push_back(pushed);
    mustache::context<std::string>::push(data);
  }

  void pop() override
  {
    mustache::context<std::string>::pop();
    // The root, pushed by the base's constructor, is never popped: every pop has its push here.
    if (m_pushed.back() != Pushed::Data) {
      if (m_pushed.back() == Pushed::ThawedAhead) {
        m_thaw_ahead->dispose(std::move(m_thawed.back())); // freed on the thread that thawed it
      }
      m_thawed.pop_back();
    }
    m_pushed.pop_back();
  }

  const mustache::data* get_partial(const std::string& name) const override
  {
    const auto found = m_partials.find(name);
    if (found == m_partials.end()) {
      m_missing_partials.insert(name);
      return nullptr;
    }
    return &found->second;
  }

  const std::set<std::string>& unknown_names() const { return m_unknown_names; }
  const std::set<std::string>& missing_partials() const { return m_missing_partials; }

private:
  // A section over a list of frozen items (a plan's attempts) has them thawed on a thread, ahead
  // of it; one over a short list is thawed here (a thread would cost more than it saves).
  void thaw_ahead(const mustache::list& items) const
  {
    constexpr std::size_t k_worth_a_thread = 16;
    if (items.size() < k_worth_a_thread || frozen_bytes(items.front()) == nullptr) {
      return;
    }
    if (!m_thaw_ahead && !m_no_thread) {
      m_thaw_ahead = ThawAhead::start();
      m_no_thread = m_thaw_ahead == nullptr;
    }
    if (m_thaw_ahead) {
      m_thaw_ahead->ahead(items);
    }
  }

  enum class Pushed { Data, ThawedHere, ThawedAhead };

  const std::map<std::string, mustache::data>& m_partials;
  mutable std::set<std::string> m_unknown_names;
  mutable std::set<std::string> m_missing_partials;
  std::size_t m_max_lookups;
  mutable std::size_t m_lookups = 0;
  std::vector<std::unique_ptr<mustache::data>> m_thawed; // the frozen items sections are in
  std::vector<Pushed> m_pushed;                          // per push: what it pushed
  // Declared last, destroyed first: it stops its thread before the thawed items above go.
  mutable std::unique_ptr<ThawAhead> m_thaw_ahead;
  mutable bool m_no_thread = false;
};

// kainjow parses, renders and destroys nested sections recursively: 40,000 of them overflow the
// stack. Counts the depth first, following delimiter changes ({{=<% %>=}}) as kainjow does.
void check_section_depth(std::string_view text, const std::string& what, const std::string& hint)
{
  std::string open = "{{";
  std::string close = "}}";
  std::size_t depth = 0;
  for (auto start = text.find(open); start != std::string_view::npos; start = text.find(open, start)) {
    auto first = start + open.size();
    const bool triple = open == "{{" && first < text.size() && text[first] == '{';
    const auto end = text.find(triple ? "}" + close : close, first);
    if (end == std::string_view::npos) {
      return; // unclosed tag: kainjow's parse reports it
    }
    const auto next = end + (triple ? 1 : 0) + close.size();
    auto tag = text.substr(first, end - first);
    while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) {
      tag.remove_prefix(1);
    }
    if (!triple && !tag.empty()) {
      if (tag.front() == '#' || tag.front() == '^') {
        if (++depth > k_max_section_depth) {
          throw Error("{}: sections nest deeper than {} levels; {}", where(what, line_of(text, start)),
                      k_max_section_depth, hint);
        }
      } else if (tag.front() == '/') {
        depth = depth > 0 ? depth - 1 : 0;
      } else if (tag.front() == '=' && tag.size() >= 2 && tag.back() == '=') {
        auto inner = tag.substr(1, tag.size() - 2);
        while (!inner.empty() && (inner.front() == ' ' || inner.front() == '\t')) {
          inner.remove_prefix(1);
        }
        const auto left_end = inner.find_first_of(" \t");
        const auto right_begin = inner.find_first_not_of(" \t", left_end);
        if (left_end != std::string_view::npos && right_begin != std::string_view::npos) {
          auto right = inner.substr(right_begin);
          while (!right.empty() && (right.back() == ' ' || right.back() == '\t')) {
            right.remove_suffix(1);
          }
          open = std::string(inner.substr(0, left_end));
          close = std::string(right);
        }
      }
    }
    start = next;
    if (open.empty() || close.empty()) {
      return; // an invalid delimiter change: kainjow's parse reports it
    }
  }
}

mustache::mustache parse_or_throw(std::string_view text, const std::string& what, const std::string& hint)
{
  mustache::mustache parsed{std::string(text)};
  if (!parsed.is_valid()) {
    const auto error = parse_kainjow_error(parsed.error_message());
    std::optional<std::size_t> line;
    if (error.position) {
      line = line_of(text, *error.position);
    }
    throw Error("{}: {}; {}", where(what, line), error.message, hint);
  }
  return parsed;
}

} // namespace

namespace {

// The Mustache spec removes a line that holds only a section tag. kainjow does, except after the
// closing tag of a section that did not render, where it leaves a blank line that would split a
// markdown list: it only removes lines on which a section was rendered. An empty inverted section
// over a name no data has is always rendered, so appending one to each standalone closing tag
// gives the spec's output in both cases (joining the tag with the next line instead lost a blank
// line that followed a section that did render).

// A variable tag ({{name}}, not a section, partial, comment or {{{name}}}) without '&'.
bool is_escaped_variable_tag(std::string_view text, std::size_t open)
{
  auto first = open + 2;
  while (first < text.size() && (text[first] == ' ' || text[first] == '\t')) {
    ++first; // kainjow reads {{ #name }} as a section
  }
  if (first >= text.size()) {
    return false;
  }
  return std::string_view("#^/>!&{=}").find(text[first]) == std::string_view::npos;
}

// Nothing is escaped (see template_engine.h), so {{name}} is written as {{&name}}: kainjow then
// appends the value itself instead of calling the escape function, which returned a copy of every
// value (a plan document has hundreds of thousands). Only up to a delimiter change ({{=...=}}):
// after it "{{" is text, and the rest keeps the escape function, which is the identity.
void unescape_variables(std::string_view line, bool& delimiters_changed, std::string& out)
{
  std::size_t start = 0;
  while (!delimiters_changed) {
    const auto open = line.find("{{", start);
    if (open == std::string_view::npos) {
      break;
    }
    const auto first = line.find_first_not_of(" \t", open + 2);
    if (first != std::string_view::npos && line[first] == '=') {
      delimiters_changed = true;
      break;
    }
    out += line.substr(start, open + 2 - start);
    if (is_escaped_variable_tag(line, open)) {
      out += '&';
    }
    start = open + 2;
  }
  out += line.substr(start);
}

std::string strip_standalone_tag_lines(std::string_view text)
{
  bool delimiters_changed = false;
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    const bool has_newline = end != std::string_view::npos;
    if (!has_newline) {
      end = text.size();
    }
    const auto line = text.substr(start, end - start);
    auto trimmed = line;
    while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) {
      trimmed.remove_prefix(1);
    }
    while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t' || trimmed.back() == '\r')) {
      trimmed.remove_suffix(1);
    }
    const bool standalone = trimmed.size() > 4 && trimmed.substr(0, 2) == "{{" && trimmed[2] == '/' &&
                            trimmed.substr(trimmed.size() - 2) == "}}" &&
                            trimmed.find("}}") == trimmed.size() - 2;
    unescape_variables(line, delimiters_changed, out);
    if (standalone) {
      out += fmt::format("{{{{^{0}}}}}{{{{/{0}}}}}", k_line_marker);
    }
    if (has_newline) {
      out += '\n';
    }
    start = end + 1;
  }
  return out;
}

// What kainjow writes the output to (it takes any type with <<): one string, without an
// ostringstream and the copy of its whole text at the end.
struct StringSink {
  std::size_t max_bytes;
  std::string text;
  StringSink& operator<<(const std::string& part)
  {
    if (text.size() + part.size() > max_bytes) {
      throw TooMuchOutput{};
    }
    text += part;
    return *this;
  }
};

} // namespace

std::string render_template(std::string_view template_text, const nlohmann::json& data,
                            std::string_view template_name, const TemplateOptions& options)
{
  return render_template(template_text, to_mustache(data), template_name, options);
}

std::string render_template(std::string_view template_text, const TemplateData& root,
                            std::string_view template_name, const TemplateOptions& options)
{
  const std::string name(template_name);
  check_section_depth(template_text, name, options.fix_hint);
  parse_or_throw(template_text, name, options.fix_hint); // errors with the author's line numbers
  auto parsed = parse_or_throw(strip_standalone_tag_lines(template_text), name, options.fix_hint);
  parsed.set_custom_escape([](const std::string& text) { return text; });

  // Partials are parsed here first so that their errors name the partial and its line.
  std::map<std::string, mustache::data> partials;
  for (const auto& [partial_name, text] : options.partials) {
    const auto partial_what = fmt::format("{} (partial '{}')", name, partial_name);
    check_section_depth(text, partial_what, options.fix_hint);
    parse_or_throw(text, partial_what, options.fix_hint);
    partials.emplace(partial_name, mustache::data{std::string(text)});
  }

  Context context(&root, partials, options.max_tag_expansions);
  StringSink sink{options.max_output_bytes, {}};
  try {
    parsed.render(context, sink);
  } catch (const TooMuchOutput&) {
    throw Error("{}: the output passes {} MiB; {}", where(name, std::nullopt), options.max_output_bytes >> 20,
                options.fix_hint);
  } catch (const TooMuchWork&) {
    throw Error("{}: expands more than {} tags (a section repeated inside itself?); {}",
                where(name, std::nullopt), options.max_tag_expansions, options.fix_hint);
  }
  std::string out = std::move(sink.text);
  if (!parsed.is_valid()) {
    const auto error = parse_kainjow_error(parsed.error_message());
    throw Error("{}: {}; {}", where(name, std::nullopt), error.message, options.fix_hint);
  }
  if (!context.missing_partials().empty()) {
    const auto& missing = *context.missing_partials().begin();
    throw Error("{}: partial '{}' not found; {}", where(name, find_tag_line(template_text, missing)), missing,
                options.fix_hint);
  }
  if (options.strict && !context.unknown_names().empty()) {
    const auto& unknown = *context.unknown_names().begin();
    throw Error("{}: '{}' is not in the data; {}", where(name, find_tag_line(template_text, unknown)),
                unknown, options.fix_hint);
  }
  return out;
}

} // namespace ej::render
