#include "render/template_data.h"

#include <algorithm>
#include <utility>

namespace ej::render {

void put(TemplateData& object, const std::string& key, TemplateData&& value)
{
  object[key] = std::move(value);
}

void put(TemplateData& object, const std::string& key, std::string text)
{
  put(object, key, template_text(std::move(text)));
}

void put(TemplateData& object, const std::string& key, std::string_view text)
{
  put(object, key, template_text(std::string(text)));
}

void put(TemplateData& object, const std::string& key, const char* text)
{
  put(object, key, TemplateData{text});
}

void put(TemplateData& object, const std::string& key, bool flag)
{
  object.set(key, TemplateData{flag}); // a boolean holds nothing to copy
}

TemplateData& append(TemplateData& list, TemplateData&& value)
{
  // list_value() is const only because kainjow offers no mutable access; the list is ours.
  auto& items = const_cast<kainjow::mustache::basic_list<std::string>&>(list.list_value());
  if (items.size() == items.capacity()) {
    // kainjow's move constructor is not noexcept, so a growing vector would copy every item (and
    // all it holds): grow it here by moving them.
    kainjow::mustache::basic_list<std::string> grown;
    grown.reserve(std::max<std::size_t>(8, items.size() * 2));
    for (auto& item : items) {
      grown.push_back(std::move(item));
    }
    items.swap(grown);
  }
  items.push_back(std::move(value));
  return items.back();
}

TemplateData template_object()
{
  return TemplateData{TemplateData::type::object};
}

TemplateData template_list(std::size_t capacity)
{
  TemplateData list{TemplateData::type::list};
  const_cast<kainjow::mustache::basic_list<std::string>&>(list.list_value()).reserve(capacity);
  return list;
}

TemplateData template_text(std::string text)
{
  TemplateData value{TemplateData::type::string};
  const_cast<std::string&>(value.string_value()) = std::move(text); // saves copying long texts
  return value;
}

} // namespace ej::render
