// libFuzzer target: event payloads (projection*.cpp) applied to an in-memory journal. Events
// arrive from other replicas by sync, so a payload is untrusted input. Each input line is
// "TYPE<TAB>PAYLOAD-JSON"; the events are applied in order, one transaction each.
#include "store/event_exchange.h"
#include "store/journal.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto journal = ej::store::Journal::open_memory();
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const auto line = text.substr(start, end - start);
    start = end + 1;
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos) {
      continue;
    }
    const std::string type(line.substr(0, tab));
    // As import and sync read them: bounded before parsing (a million levels of nesting are refused).
    auto payload = ej::store::parse_bounded(line.substr(tab + 1));
    if (payload.is_discarded()) {
      continue;
    }
    try {
      journal.write([&](ej::store::Writer& writer) { writer.append(type, std::move(payload)); });
    } catch (const ej::Error&) {
      // an event the journal refuses, with its message
    }
  }
  return 0;
}
