#pragma once

#include <kainjow/mustache.hpp>

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

// The data a template renders, built directly in kainjow's own type: a large document's data
// (a plan with thousands of runs) took as long to build as JSON and convert as to render.
namespace ej::render {

using TemplateData = kainjow::mustache::data;

// kainjow's set() and push_back() copy what they are given (and all it holds); these move it in.
void put(TemplateData& object, const std::string& key, TemplateData&& value);
void put(TemplateData& object, const std::string& key, std::string text);
void put(TemplateData& object, const std::string& key, std::string_view text);
void put(TemplateData& object, const std::string& key, const char* text);
void put(TemplateData& object, const std::string& key, bool flag);
// Integers render as their decimal digits, as a JSON integer does.
template <std::integral T>
requires(!std::same_as<T, bool>) void put(TemplateData& object, const std::string& key, T number)
{
  put(object, key, std::to_string(number));
}
TemplateData& append(TemplateData& list, TemplateData&& value);

TemplateData template_object();
TemplateData template_list(std::size_t capacity = 0);
TemplateData template_text(std::string text);

} // namespace ej::render
