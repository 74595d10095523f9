#include "mcp/server.h"

#include "mcp/jsonrpc.h"
#include "mcp/resources.h"
#include "mcp/tool.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace ej::mcp {

namespace {

using nlohmann::json;

constexpr double k_default_bound_s = 10;
// A revision from which results carry structuredContent and tools an outputSchema.
constexpr std::string_view k_structured_since = "2025-06-18";

// What a request gets: a result, or a JSON-RPC error.
struct Reply {
  json result;
  std::optional<std::pair<RpcCode, std::string>> error;
};

// Runs `work` on a thread of its own and waits for it up to `bound_s`: a call that would take
// longer is answered by `late` and its thread left to finish alone (its answer is dropped). So the
// client gets an answer within the bound whatever the journal or a stuck child does, and the next
// call is served meanwhile. Calls that wait on purpose (wait, cancel, run) keep inside it themselves.
class Bounded {
public:
  Reply run(std::function<Reply()> work, double bound_s, std::function<Reply()> late)
  {
    using Clock = std::chrono::steady_clock;
    struct Shared {
      std::mutex mutex;
      std::condition_variable done_signal;
      bool done = false;
      Clock::time_point finished;
      Reply reply;
    };
    // The bound counts from here, and a call is in time when its work ended by then: on a busy
    // machine this thread may first look long after the worker is done.
    // (At most a year: a larger EJ_MCP_MAX_S would overflow the clock's nanoseconds.)
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(std::min(bound_s, 3.2e7)));
    auto shared = std::make_shared<Shared>();
    std::thread worker([shared, work = std::move(work)] {
      Reply reply;
      try {
        reply = work();
      } catch (const std::exception& error) {
        reply.error = {RpcCode::InternalError, error.what()};
      }
      const auto finished = Clock::now();
      std::lock_guard lock(shared->mutex);
      shared->reply = std::move(reply);
      shared->finished = finished;
      shared->done = true;
      shared->done_signal.notify_all();
    });
    std::unique_lock lock(shared->mutex);
    const bool in_time = shared->done_signal.wait_until(lock, deadline, [&] { return shared->done; }) &&
                         shared->finished <= deadline;
    if (in_time) {
      lock.unlock();
      worker.join();
      return std::move(shared->reply);
    }
    lock.unlock();
    ++m_left_running;
    std::thread([shared, this, late_worker = std::move(worker)]() mutable {
      late_worker.join();
      --m_left_running;
    }).detach();
    return late();
  }

  // Calls still running after their answer went: the process must not run static destructors
  // under them.
  int left_running() const { return m_left_running; }

private:
  std::atomic<int> m_left_running = 0;
};

// The protocol's own streams, apart from the process's: stdout becomes stderr, so that nothing ej
// or a child prints ever lands among the messages, and stdin /dev/null, so that no child reads them.
struct Streams {
  int in = -1;
  int out = -1;
};

Streams take_streams()
{
  Streams streams;
  streams.in = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  streams.out = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (streams.in < 0 || streams.out < 0) {
    throw Error("cannot set up the MCP streams: {}", std::strerror(errno));
  }
  std::fflush(stdout);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  if (const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC); null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::close(null);
  }
  return streams;
}

// Writes one message; false when the client is gone.
bool send(int fd, const json& message)
{
  const auto line = to_line(message);
  std::size_t written = 0;
  while (written < line.size()) {
    const auto n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

void ignore_signal(int) {}

class Session {
public:
  Session(const ServerOptions& options, double bound_s) : m_options(options), m_bound_s(bound_s) {}

  // The reply to a request; nullopt for one that gets none.
  Reply handle(const Incoming& request)
  {
    const auto& method = request.method;
    if (method == "initialize") {
      return {initialize(request.params), std::nullopt};
    }
    if (method == "ping") {
      return {json::object(), std::nullopt};
    }
    if (method == "tools/list") {
      return {list_tools(), std::nullopt};
    }
    if (method == "tools/call") {
      return call_tool(request.params);
    }
    if (method == "resources/list") {
      return bounded([this, params = request.params] {
        return Reply{list_resources(context(), params.value("cursor", "")), std::nullopt};
      });
    }
    if (method == "resources/templates/list") {
      return {resource_templates(), std::nullopt};
    }
    if (method == "resources/read") {
      return read(request.params);
    }
    return {json(), std::pair{RpcCode::MethodNotFound, fmt::format("ej mcp has no method '{}'", method)}};
  }

  int left_running() const { return m_bounded.left_running(); }

private:
  bool structured() const { return m_protocol >= k_structured_since; }

  json initialize(const json& params)
  {
    const auto asked = params.value("protocolVersion", "");
    m_protocol = k_protocol_versions[0];
    for (const char* version : k_protocol_versions) {
      if (asked == version) {
        m_protocol = version;
      }
    }
    return {
        {"protocolVersion", m_protocol},
        {"capabilities",
         {{"tools", {{"listChanged", false}}},
          {"resources", {{"listChanged", false}, {"subscribe", false}}}}},
        {"serverInfo",
         {{"name", "ej"}, {"title", "ej, the experiment journal"}, {"version", m_options.version}}},
        {"instructions",
         fmt::format(
             "ej keeps this repository's journal of optimization attempts. Record what you try (try, note, "
             "status), run registered benchmarks in the background (run returns at once; call wait until "
             "it ends; run with against measures interleaved against a reference, calibrate measures a "
             "benchmark's noise, both in the background too), judge attempts against their plan's baseline "
             "(judge, compare) and read the journal "
             "(log, show, why, search, runs, bench_list, bench_show). Every result is the object ej's "
             "--json output prints (docs/json.md). No call takes longer than {:g} s.",
             m_bound_s)}};
  }

  json list_tools() const
  {
    auto tools = json::array();
    for (const auto& tool : all_tools()) {
      json entry = {{"name", tool.name},
                    {"title", tool.title},
                    {"description", tool.description},
                    {"inputSchema", tool.input_schema},
                    {"annotations",
                     {{"title", tool.title},
                      {"readOnlyHint", tool.read_only},
                      {"destructiveHint", tool.destructive},
                      {"openWorldHint", false}}}};
      if (structured()) {
        entry["outputSchema"] = tool.output_schema;
      }
      tools.push_back(std::move(entry));
    }
    return {{"tools", tools}};
  }

  Reply call_tool(const json& params)
  {
    const auto name = params.value("name", "");
    const auto* tool = find_tool(name);
    if (tool == nullptr) {
      std::vector<std::string> names;
      for (const auto& t : all_tools()) {
        names.push_back(t.name);
      }
      return {json(), std::pair{RpcCode::InvalidParams,
                                fmt::format("unknown tool '{}'; the tools are: {}",
                                            util::visible_controls(name), util::join(names, ", "))}};
    }
    const auto arguments = params.contains("arguments") ? params["arguments"] : json::object();
    const bool structured_output = structured();
    return bounded(
        [this, tool, arguments, structured_output] {
          try {
            const Arguments args(tool->name, tool->input_schema, arguments);
            auto answer = tool->answer(args, context());
            json content = json::array({{{"type", "text"}, {"text", answer.text}}});
            // For clients that read only the text: the same object, serialized (as MCP advises).
            content.push_back(
                {{"type", "text"},
                 {"text", answer.structured.dump(-1, ' ', false, json::error_handler_t::replace)}});
            json result = {{"content", content}, {"isError", false}};
            if (structured_output) {
              result["structuredContent"] = std::move(answer.structured);
            }
            return Reply{std::move(result), std::nullopt};
          } catch (const Error& error) {
            return tool_error(error.what());
          } catch (const std::exception& error) {
            return tool_error(std::string("unexpected failure: ") + error.what());
          }
        },
        [name, this] {
          return tool_error(fmt::format(
              "{} did not finish within {:g} s, the bound of every call (EJ_MCP_MAX_S); what it does goes on "
              "but its answer is lost: look again with a later call (for a long run: run, then wait)",
              name, m_bound_s));
        });
  }

  Reply read(const json& params)
  {
    const auto uri = params.value("uri", "");
    return bounded([this, uri] {
      try {
        if (auto contents = read_resource(context(), uri)) {
          return Reply{std::move(*contents), std::nullopt};
        }
      } catch (const Error& error) {
        return Reply{json(), std::pair{RpcCode::InternalError, std::string(error.what())}};
      }
      return Reply{json(),
                   std::pair{k_resource_not_found, fmt::format("no resource {}; see resources/list", uri)}};
    });
  }

  static Reply tool_error(const std::string& message)
  {
    return {{{"content", {{{"type", "text"}, {"text", util::visible_controls(message)}}}}, {"isError", true}},
            std::nullopt};
  }

  Reply bounded(std::function<Reply()> work)
  {
    return m_bounded.run(std::move(work), m_bound_s, [this] {
      return Reply{json(), std::pair{RpcCode::InternalError,
                                     fmt::format("no answer within {:g} s (EJ_MCP_MAX_S)", m_bound_s)}};
    });
  }

  Reply bounded(std::function<Reply()> work, std::function<Reply()> late)
  {
    return m_bounded.run(std::move(work), m_bound_s, std::move(late));
  }

  // Where the journal is: found at the first call that needs it (a server started outside a
  // repository answers each call with that error, and initialize still works).
  Context context()
  {
    std::lock_guard lock(m_mutex);
    if (!m_workspace) {
      m_workspace = measuring::locate_workspace();
    }
    return {*m_workspace, m_bound_s, m_options.build_identity, m_options.version};
  }

  static constexpr RpcCode k_resource_not_found = static_cast<RpcCode>(-32002);

  const ServerOptions& m_options;
  double m_bound_s;
  std::string m_protocol = k_protocol_versions[0];
  std::mutex m_mutex;
  std::optional<measuring::Workspace> m_workspace;
  Bounded m_bounded;
};

} // namespace

double call_bound_seconds()
{
  const char* text = std::getenv("EJ_MCP_MAX_S");
  if (text == nullptr || *text == '\0') {
    return k_default_bound_s;
  }
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(value) || value <= 0) {
    throw UsageError("EJ_MCP_MAX_S='{}' is not a number of seconds above 0; e.g. EJ_MCP_MAX_S=10", text);
  }
  return value;
}

int serve(const ServerOptions& options)
{
  const double bound_s = call_bound_seconds();
  const auto streams = take_streams();
  // A client gone mid-answer: the write fails (EPIPE) and the server ends, instead of SIGPIPE's death.
  // A handler, not SIG_IGN: what ej starts gets the default back at exec.
  struct sigaction action {};
  action.sa_handler = ignore_signal;
  ::sigaction(SIGPIPE, &action, nullptr);
  Session session(options, bound_s);
  FILE* input = ::fdopen(streams.in, "r");
  char* line = nullptr;
  std::size_t capacity = 0;
  bool client_there = true;
  while (client_there) {
    const auto length = ::getline(&line, &capacity, input);
    if (length < 0) {
      break; // the client closed stdin: the session ends (detached runs go on)
    }
    std::string_view text(line, static_cast<std::size_t>(length));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
      text.remove_suffix(1);
    }
    if (util::trim(text).empty()) {
      continue;
    }
    const auto message = parse_message(text);
    switch (message.kind) {
    case MessageKind::Invalid:
      client_there = send(streams.out, error_message(message.id, message.error, message.error_message));
      break;
    case MessageKind::Notification: // initialized, cancelled (a call runs to its bound), ...
    case MessageKind::Response:     // ej sends no requests
      break;
    case MessageKind::Request: {
      auto reply = session.handle(message);
      client_there =
          send(streams.out, reply.error ? error_message(message.id, reply.error->first, reply.error->second)
                                        : result_message(message.id, std::move(reply.result)));
      break;
    }
    }
  }
  std::free(line);
  if (session.left_running() > 0) {
    // A call past its bound still runs on a thread: end without running destructors under it (its
    // journal transaction, if any, is rolled back by SQLite).
    std::fflush(nullptr);
    std::_Exit(0);
  }
  std::fclose(input);
  return 0;
}

} // namespace ej::mcp
