#include "mcp/schema.h"

namespace ej::mcp::schema {

namespace {

Json typed(const char* type, const std::string& description)
{
  Json out = {{"type", type}};
  if (!description.empty()) {
    out["description"] = description;
  }
  return out;
}

} // namespace

Json string(const std::string& description)
{
  return typed("string", description);
}

Json integer(const std::string& description)
{
  return typed("integer", description);
}

Json number(const std::string& description)
{
  return typed("number", description);
}

Json boolean(const std::string& description)
{
  return typed("boolean", description);
}

Json object(const std::string& description)
{
  return typed("object", description);
}

Json array(Json items, const std::string& description)
{
  auto out = typed("array", description);
  out["items"] = std::move(items);
  return out;
}

Json nullable(Json schema)
{
  auto& type = schema["type"];
  type = type.is_array() ? type : Json::array({type});
  type.push_back("null");
  return schema;
}

Json either(std::initializer_list<const char*> types, const std::string& description)
{
  Json out = {{"type", Json::array()}};
  for (const char* type : types) {
    out["type"].push_back(type);
  }
  if (!description.empty()) {
    out["description"] = description;
  }
  return out;
}

Json record(const Properties& properties)
{
  std::vector<std::string> required;
  for (const auto& [name, schema] : properties) {
    required.push_back(name);
  }
  return record(properties, required);
}

Json record(const Properties& properties, const std::vector<std::string>& required)
{
  Json out = {{"type", "object"}, {"properties", Json::object()}, {"required", required}};
  for (const auto& [name, schema] : properties) {
    out["properties"][name] = schema;
  }
  return out;
}

Json arguments(const Properties& properties, const std::vector<std::string>& required)
{
  auto out = record(properties, required);
  out["additionalProperties"] = false;
  return out;
}

} // namespace ej::mcp::schema
