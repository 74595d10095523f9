#include "cli/command_tree.h"

#include "util/strings.h"

namespace ej::cli {

namespace {

constexpr std::string_view k_examples_heading = "Examples:";

} // namespace

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app)
{
  std::vector<const CLI::App*> out;
  for (const auto* sub : app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); })) {
    out.push_back(sub);
  }
  return out;
}

std::vector<std::string> subcommand_names(const CLI::App& app)
{
  std::vector<std::string> out;
  for (const auto* sub : visible_subcommands(app)) {
    out.push_back(sub->get_name());
  }
  return out;
}

std::vector<const CLI::App*> lineage(const CLI::App& app)
{
  std::vector<const CLI::App*> out;
  for (const auto* node = &app; node != nullptr; node = node->get_parent()) {
    out.insert(out.begin(), node);
  }
  return out;
}

std::string command_path(const CLI::App& app)
{
  std::vector<std::string> names;
  for (const auto* node : lineage(app)) {
    names.push_back(node->get_name());
  }
  return util::join(names, " ");
}

std::vector<const CLI::Option*> command_options(const CLI::App& app)
{
  std::vector<const CLI::Option*> out;
  const auto chain = lineage(app);
  for (auto node = chain.rbegin(); node != chain.rend(); ++node) {
    for (const auto* option : (*node)->get_options()) {
      const bool hidden = option->get_group().empty();
      // --help belongs to each command; the ones above would be a second copy of it.
      const bool parents_help = *node != &app && option == (*node)->get_help_ptr();
      if (!option->get_positional() && !hidden && !parents_help) {
        out.push_back(option);
      }
    }
  }
  return out;
}

std::vector<const CLI::Option*> positionals(const CLI::App& app)
{
  std::vector<const CLI::Option*> out;
  for (const auto* option : app.get_options()) {
    if (option->get_positional()) {
      out.push_back(option);
    }
  }
  return out;
}

std::vector<std::string> option_names(const CLI::Option& option)
{
  std::vector<std::string> out;
  for (const auto& name : option.get_lnames()) {
    out.push_back("--" + name);
  }
  for (const auto& name : option.get_snames()) {
    out.push_back("-" + name);
  }
  return out;
}

bool takes_value(const CLI::Option& option)
{
  return option.get_type_size_max() > 0 && option.get_expected_max() > 0;
}

std::vector<std::string> choices(const CLI::Option& option)
{
  // CLI11 describes a set validator as "{a,b,c}" in the option's type name ("TEXT:{a,b,c}").
  const auto type = option.get_type_name();
  const auto open = type.find(":{");
  const auto close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) {
    return {};
  }
  return util::split(type.substr(open + 2, close - open - 2), ',');
}

std::vector<std::string> examples(const CLI::App& app)
{
  const auto footer = app.get_footer();
  const auto heading = footer.find(k_examples_heading);
  if (heading == std::string::npos) {
    return {};
  }
  std::vector<std::string> out;
  for (const auto& line : util::lines(footer.substr(heading + k_examples_heading.size()))) {
    const auto text = util::trim(line);
    if (text.empty() && !out.empty()) {
      break; // the end of the examples
    }
    if (!text.empty()) {
      out.emplace_back(text);
    }
  }
  return out;
}

void add_examples(CLI::App& app, const std::vector<std::string>& lines)
{
  // After what the command's footer says already.
  auto footer = app.get_footer();
  footer += (footer.empty() ? "" : "\n\n") + std::string(k_examples_heading);
  for (const auto& line : lines) {
    footer += "\n  " + line;
  }
  app.footer(footer);
}

const CLI::App* find_command(const CLI::App& root, const std::vector<std::string>& words,
                             std::size_t* matched)
{
  const CLI::App* node = &root;
  std::size_t i = 0;
  for (; i < words.size(); ++i) {
    const CLI::App* next = nullptr;
    for (const auto* sub : visible_subcommands(*node)) {
      if (sub->get_name() == words[i]) {
        next = sub;
      }
    }
    if (next == nullptr) {
      break;
    }
    node = next;
  }
  if (matched != nullptr) {
    *matched = i;
  }
  return i == words.size() ? node : nullptr;
}

} // namespace ej::cli
