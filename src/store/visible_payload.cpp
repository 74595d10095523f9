#include "store/visible_payload.h"

#include "util/strings.h"

#include <algorithm>

namespace ej::store {

namespace {

bool has_control(const std::string& text)
{
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && u != '\n' && u != '\t') || u == 0x7f || u == 0xc2;
  });
}

// Calls `each` on every string of the payload but those under "definition"; stops at the first
// true it returns.
template <typename Json, typename Each> bool any_text(Json& value, Each each)
{
  if (value.is_string()) {
    return each(
        value
            .template get_ref<std::conditional_t<std::is_const_v<Json>, const std::string&, std::string&>>());
  }
  if (value.is_array()) {
    for (auto& item : value) {
      if (any_text(item, each)) {
        return true;
      }
    }
  } else if (value.is_object()) {
    for (auto& [key, member] : value.items()) {
      if (key != "definition" && any_text(member, each)) {
        return true;
      }
    }
  }
  return false;
}

} // namespace

bool holds_controls(const nlohmann::json& payload)
{
  return any_text(payload, [](const std::string& text) { return has_control(text); });
}

void make_controls_visible(nlohmann::json& payload)
{
  any_text(payload, [](std::string& text) {
    if (has_control(text)) {
      text = util::visible_controls(text);
    }
    return false;
  });
}

} // namespace ej::store
