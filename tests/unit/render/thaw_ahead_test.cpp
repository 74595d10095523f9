#include "render/frozen_data.h"
#include "render/thaw_ahead.h"

#include <catch2/catch.hpp>

using namespace ej::render;

namespace {

TemplateData frozen_list(int count, int first = 1)
{
  auto list = template_list(static_cast<std::size_t>(count));
  for (int number = first; number < first + count; ++number) {
    FrozenWriter item;
    item.put("number", number);
    append(list, item.take_frozen());
  }
  return list;
}

std::string number_of(const TemplateData& thawed)
{
  return thawed.get("number")->string_value();
}

} // namespace

TEST_CASE("items thawed ahead are the items of the list, each given once, in order")
{
  const auto list = frozen_list(200);
  const auto& items = list.list_value();
  auto ahead = ThawAhead::start();
  REQUIRE(ahead != nullptr);
  ahead->ahead(items);
  int from_thread = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    INFO("item " << i);
    // nullptr: the thread had not started on it (the caller thaws it); else the item itself.
    auto thawed = ahead->take(&items[i]);
    if (thawed) {
      ++from_thread;
      CHECK(number_of(*thawed) == std::to_string(i + 1));
      ahead->dispose(std::move(thawed));
    }
  }
  INFO(from_thread << " of 200 came from the thread");
  CHECK(ahead->take(&items[3]) == nullptr);   // taken (or passed) before
  CHECK(ahead->take(&items[199]) == nullptr); // the same
  const auto other = frozen_list(1, 7);
  CHECK(ahead->take(&other.list_value()[0]) == nullptr); // not an item of the list ahead
}

TEST_CASE("thawing ahead moves to the list a section names next, and starts it from its first item")
{
  const auto first = frozen_list(50);
  const auto second = frozen_list(50, 101);
  auto ahead = ThawAhead::start();
  REQUIRE(ahead != nullptr);
  ahead->ahead(first.list_value());
  ahead->take(&first.list_value()[0]);
  ahead->ahead(second.list_value());
  CHECK(ahead->take(&first.list_value()[1]) == nullptr); // no longer ahead
  for (const auto& item : second.list_value()) {
    if (auto thawed = ahead->take(&item)) {
      CHECK(number_of(*thawed) == number_of(thaw(*frozen_bytes(item))));
    }
  }
  ahead->ahead(first.list_value()); // back to the first: from its start again
  const auto& items = first.list_value();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (auto thawed = ahead->take(&items[i])) {
      CHECK(number_of(*thawed) == std::to_string(i + 1));
    }
  }
}
