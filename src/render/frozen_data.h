#pragma once

#include "render/template_data.h"

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Template data kept as bytes until a section reaches it. A plan of 10,000 attempts and 100,000
// runs has twenty values a run: as TemplateData each is a node and an allocation of its own (400
// MB for a 20 MB document). Written frozen, an attempt's section is its bytes (about 150 a run);
// the renderer thaws it when a section enters it and drops it when the section moves on
// (template_engine.cpp), so a document holds one attempt's data at a time, however many it lists.
namespace ej::render {

// Writes one object: put() its values in any order, lists with begin_list ... end_list.
class FrozenWriter {
public:
  FrozenWriter();
  void put(std::string_view key, std::string_view text);
  void put(std::string_view key, const std::string& text) { put(key, std::string_view(text)); }
  void put(std::string_view key, const char* text) { put(key, std::string_view(text)); }
  void put(std::string_view key, bool flag);
  // Integers render as their decimal digits, as put() into TemplateData writes them.
  template <std::integral T>
  requires(!std::same_as<T, bool>) void put(std::string_view key, T number)
  {
    put(key, std::string_view(std::to_string(number)));
  }

  // A list under `key`: its items (texts, or objects between begin_object and end_object) follow;
  // lists and objects nest.
  void begin_list(std::string_view key);
  void item(std::string_view text);
  void begin_object();
  void end_object();
  void end_list();

  // The object written, as the item of a list that the renderer thaws when a section reaches it
  // (only as an item: a section over it alone would see a list).
  TemplateData take_frozen();

private:
  void bytes(std::string_view key);
  void in_list() const;

  std::string m_bytes;
  struct OpenList {
    std::size_t count_at; // where its item count goes
    std::uint32_t items;
  };
  std::vector<OpenList> m_open_lists;
};

// A frozen item's bytes, or nullptr when `data` is not one; thaw() makes them the TemplateData
// written.
const std::string* frozen_bytes(const TemplateData& data);
TemplateData thaw(std::string_view frozen);

} // namespace ej::render
