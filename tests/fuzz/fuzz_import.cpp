// libFuzzer target: what `ej import` and `ej sync` read from another replica: JSON lines of event
// envelopes (store/event_exchange), imported into an in-memory journal. Untrusted input: it must
// never crash, only be refused (ej::Error) or skipped line by line.
#include "store/event_exchange.h"
#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  int bad = 0;
  const auto events = ej::store::decode_events(text, &bad);
  auto journal = ej::store::Journal::open_memory();
  try {
    ej::store::import_events(journal, events, [](const std::string&) { return std::optional<std::string>(); });
  } catch (const ej::Error&) {
    // an event the journal refuses, with its message
  }
  return 0;
}
