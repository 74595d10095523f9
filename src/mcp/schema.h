#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

// JSON Schema (draft 2020-12, what MCP's inputSchema and outputSchema hold), written as a few
// calls: the tools' arguments and the documented objects they return (docs/json.md).
namespace ej::mcp::schema {

using Json = nlohmann::json;
using Properties = std::vector<std::pair<std::string, Json>>;

Json string(const std::string& description = "");
Json integer(const std::string& description = "");
Json number(const std::string& description = "");
Json boolean(const std::string& description = "");
// Any object (a verdict, a definition: documented in docs/json.md, checked there).
Json object(const std::string& description = "");
Json array(Json items, const std::string& description = "");
// The same, or null.
Json nullable(Json schema);
// One of several types: {"type": [...]}.
Json either(std::initializer_list<const char*> types, const std::string& description = "");

// An object with these properties, every one required (ej's objects never leave a field out: an
// absent value is null); others may appear (new fields do not raise the schema).
Json record(const Properties& properties);
// The same, with only `required` required (arguments; objects whose fields depend on what was asked).
Json record(const Properties& properties, const std::vector<std::string>& required);
// Arguments: only these properties; `required` of them must be given.
Json arguments(const Properties& properties, const std::vector<std::string>& required = {});

} // namespace ej::mcp::schema
