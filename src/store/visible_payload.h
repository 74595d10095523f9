#pragma once

#include <nlohmann/json.hpp>

namespace ej::store {

// Text in the journal is shown on terminals and in documents: an ESC or BEL in a title, a reason
// or a line a benchmark printed is kept in its visible form (util::visible_controls). A
// benchmark's definition is what ej executes, byte for byte, and stays as it was given.

// Whether any text of the payload (its definitions aside) holds a control character.
bool holds_controls(const nlohmann::json& payload);
// Every such text in its visible form.
void make_controls_visible(nlohmann::json& payload);

} // namespace ej::store
