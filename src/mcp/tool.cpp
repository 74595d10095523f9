#include "mcp/tool.h"

#include "util/closest.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::mcp {

namespace {

bool has_type(const nlohmann::json& schema, const char* type)
{
  const auto& declared = schema.at("type");
  return declared.is_array() ? std::find(declared.begin(), declared.end(), type) != declared.end()
                             : declared == type;
}

// Whether `value` is of a type `schema` allows (the types arguments use: string, integer, number,
// boolean, arrays of strings).
bool fits(const nlohmann::json& schema, const nlohmann::json& value)
{
  if (value.is_string()) {
    return has_type(schema, "string");
  }
  if (value.is_number_integer() || value.is_number_unsigned()) {
    return has_type(schema, "integer") || has_type(schema, "number");
  }
  if (value.is_number()) {
    return has_type(schema, "number");
  }
  if (value.is_boolean()) {
    return has_type(schema, "boolean");
  }
  if (value.is_array() && has_type(schema, "array")) {
    return std::all_of(value.begin(), value.end(),
                       [&](const auto& item) { return fits(schema["items"], item); });
  }
  return false;
}

std::string type_words(const nlohmann::json& schema)
{
  const auto& declared = schema.at("type");
  if (!declared.is_array()) {
    return declared == "array" ? "an array of " + type_words(schema["items"]) + "s"
                               : declared.get<std::string>();
  }
  std::vector<std::string> words;
  for (const auto& type : declared) {
    words.push_back(type.get<std::string>());
  }
  return util::join(words, " or ");
}

} // namespace

Arguments::Arguments(std::string tool, const nlohmann::json& schema, const nlohmann::json& given)
    : m_tool(std::move(tool)), m_given(given.is_object() ? given : nlohmann::json::object())
{
  if (!given.is_null() && !given.is_object()) {
    throw UsageError("the arguments of {} are an object of names and values", m_tool);
  }
  const auto& properties = schema.at("properties");
  std::vector<std::string> names;
  for (const auto& [name, property] : properties.items()) {
    names.push_back(name);
  }
  for (const auto& [name, value] : m_given.items()) {
    const auto property = properties.find(name);
    if (property == properties.end()) {
      const auto suggestion = util::did_you_mean(name, names);
      throw UsageError("{} has no argument '{}'; {}", m_tool, util::visible_controls(name),
                       suggestion.empty() ? "its arguments are: " + util::join(names, ", ") : suggestion);
    }
    if (!value.is_null() && !fits(*property, value)) {
      throw UsageError("the argument '{}' of {} takes {}, not {}", name, m_tool, type_words(*property),
                       value.type_name());
    }
  }
  for (const auto& name : schema.value("required", nlohmann::json::array())) {
    if (!has(name.get<std::string>())) {
      const auto& property = properties.at(name.get<std::string>());
      throw UsageError("{} needs the argument '{}' ({})", m_tool, name.get<std::string>(),
                       property.value("description", type_words(property)));
    }
  }
}

const nlohmann::json& Arguments::value(const std::string& name) const
{
  static const nlohmann::json k_null;
  const auto found = m_given.find(name);
  return found == m_given.end() ? k_null : *found;
}

bool Arguments::has(const std::string& name) const
{
  return !value(name).is_null();
}

std::string Arguments::text(const std::string& name, const std::string& fallback) const
{
  const auto& v = value(name);
  return v.is_string() ? v.get<std::string>() : fallback;
}

std::string Arguments::name_of(const std::string& name) const
{
  const auto& v = value(name);
  if (v.is_number_integer() || v.is_number_unsigned()) {
    return std::to_string(v.get<long long>());
  }
  return v.is_string() ? v.get<std::string>() : "";
}

std::optional<long long> Arguments::integer(const std::string& name) const
{
  const auto& v = value(name);
  return v.is_number_integer() || v.is_number_unsigned() ? std::optional(v.get<long long>()) : std::nullopt;
}

std::optional<double> Arguments::number(const std::string& name) const
{
  const auto& v = value(name);
  return v.is_number() ? std::optional(v.get<double>()) : std::nullopt;
}

bool Arguments::flag(const std::string& name) const
{
  const auto& v = value(name);
  return v.is_boolean() && v.get<bool>();
}

std::vector<std::string> Arguments::texts(const std::string& name) const
{
  std::vector<std::string> out;
  for (const auto& item : value(name).is_array() ? value(name) : nlohmann::json::array()) {
    out.push_back(item.get<std::string>());
  }
  return out;
}

const std::vector<Tool>& all_tools()
{
  static const std::vector<Tool> tools = [] {
    std::vector<Tool> out;
    add_attempt_tools(out);
    add_run_tools(out);
    add_plan_tools(out);
    return out;
  }();
  return tools;
}

const Tool* find_tool(const std::string& name)
{
  for (const auto& tool : all_tools()) {
    if (tool.name == name) {
      return &tool;
    }
  }
  return nullptr;
}

} // namespace ej::mcp
