#include "mcp/jsonrpc.h"

#include <catch2/catch.hpp>

using namespace ej::mcp;
using nlohmann::json;

TEST_CASE("a request, a notification and a response are told apart by their id and method")
{
  const auto request =
      parse_message(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"x"}})");
  CHECK(request.kind == MessageKind::Request);
  CHECK(request.id == 7);
  CHECK(request.method == "tools/list");
  CHECK(request.params == json{{"cursor", "x"}});
  const auto notification = parse_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  CHECK(notification.kind == MessageKind::Notification);
  CHECK(notification.params == json::object());
  CHECK(parse_message(R"({"jsonrpc":"2.0","id":"a","result":{}})").kind == MessageKind::Response);
}

TEST_CASE("what is not a JSON-RPC 2.0 request of MCP is invalid, answered with the standard code")
{
  const auto not_json = parse_message("not json");
  CHECK(not_json.kind == MessageKind::Invalid);
  CHECK(not_json.error == RpcCode::ParseError);
  CHECK(not_json.id.is_null());
  const auto batch = parse_message(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  CHECK(batch.error == RpcCode::InvalidRequest);
  const auto old = parse_message(R"({"jsonrpc":"1.0","id":3,"method":"ping"})");
  CHECK(old.error == RpcCode::InvalidRequest);
  CHECK(old.id == 3); // answered under its id
  const auto null_id = parse_message(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  CHECK(null_id.error == RpcCode::InvalidRequest);
  CHECK(null_id.id.is_null());
  const auto no_method = parse_message(R"({"jsonrpc":"2.0","id":4})");
  CHECK(no_method.error == RpcCode::InvalidRequest);
  const auto list_params = parse_message(R"({"jsonrpc":"2.0","id":5,"method":"ping","params":[1]})");
  CHECK(list_params.error == RpcCode::InvalidParams);
}

TEST_CASE("a message goes out on one line, whatever its text holds")
{
  const auto line = to_line(result_message(1, {{"text", "two\nlines \xff"}}));
  CHECK(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);
  CHECK(json::parse(line)["result"]["text"] == "two\nlines \xef\xbf\xbd");
  CHECK(json::parse(to_line(error_message(nullptr, RpcCode::MethodNotFound, "no")))["error"]["code"] ==
        -32601);
}
