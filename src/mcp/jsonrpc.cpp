#include "mcp/jsonrpc.h"

namespace ej::mcp {

namespace {

using nlohmann::json;

Incoming invalid(json id, RpcCode code, std::string message)
{
  Incoming out;
  out.kind = MessageKind::Invalid;
  out.id = std::move(id);
  out.error = code;
  out.error_message = std::move(message);
  return out;
}

// MCP narrows JSON-RPC's ids to strings and integers (never null).
bool valid_id(const json& id)
{
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

} // namespace

Incoming parse_message(std::string_view line)
{
  json message;
  try {
    message = json::parse(line);
  } catch (const json::exception& error) {
    return invalid(nullptr, RpcCode::ParseError, std::string("not JSON: ") + error.what());
  }
  if (message.is_array()) {
    return invalid(nullptr, RpcCode::InvalidRequest,
                   "batches are not part of MCP since 2025-06-18; send one message per line");
  }
  if (!message.is_object()) {
    return invalid(nullptr, RpcCode::InvalidRequest, "a message is a JSON object");
  }
  const auto id_field = message.find("id");
  const json id = id_field == message.end() ? json(nullptr) : *id_field;
  const auto reply_id = valid_id(id) ? id : json(nullptr);
  if (message.value("jsonrpc", json()) != "2.0") {
    return invalid(reply_id, RpcCode::InvalidRequest, "\"jsonrpc\" must be \"2.0\"");
  }
  if (id_field != message.end() && !valid_id(id)) {
    return invalid(nullptr, RpcCode::InvalidRequest, "\"id\" must be a string or an integer");
  }
  const auto method = message.find("method");
  if (method == message.end()) {
    if (id_field != message.end() && (message.contains("result") || message.contains("error"))) {
      Incoming response;
      response.kind = MessageKind::Response;
      response.id = id;
      return response;
    }
    return invalid(reply_id, RpcCode::InvalidRequest, "a request needs a \"method\"");
  }
  if (!method->is_string()) {
    return invalid(reply_id, RpcCode::InvalidRequest, "\"method\" must be a string");
  }
  Incoming out;
  out.kind = id_field == message.end() ? MessageKind::Notification : MessageKind::Request;
  out.id = id;
  out.method = method->get<std::string>();
  out.params = json::object();
  if (const auto params = message.find("params"); params != message.end() && !params->is_null()) {
    if (params->is_object()) {
      out.params = *params;
    } else if (out.kind == MessageKind::Request) {
      return invalid(reply_id, RpcCode::InvalidParams, "\"params\" must be an object");
    } // a notification is never answered, not even with an error
  }
  return out;
}

json result_message(const json& id, json result)
{
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json error_message(const json& id, RpcCode code, const std::string& message)
{
  return {
      {"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

std::string to_line(const json& message)
{
  // dump() escapes newlines inside strings; replace keeps a stray invalid byte from throwing.
  return message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace ej::mcp
