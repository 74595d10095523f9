#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line, UTF-8, no batches
// (protocol revisions 2025-06-18 and later removed them).
namespace ej::mcp {

// The standard error codes.
enum class RpcCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
};

enum class MessageKind { Request, Notification, Response, Invalid };

// One line read from the client.
struct Incoming {
  MessageKind kind = MessageKind::Invalid;
  nlohmann::json id;     // a request's (or an invalid message's, when it had one; else null)
  std::string method;    // requests and notifications
  nlohmann::json params; // an object (empty when absent)
  RpcCode error = RpcCode::InvalidRequest; // Invalid: why
  std::string error_message;               // Invalid: said to the client
};

// Reads one line. Never throws: what cannot be read is an Invalid message saying why.
Incoming parse_message(std::string_view line);

nlohmann::json result_message(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error_message(const nlohmann::json& id, RpcCode code, const std::string& message);

// A message as one line for the transport (no newline inside; invalid UTF-8 replaced).
std::string to_line(const nlohmann::json& message);

} // namespace ej::mcp
