#include "render/template_data.h"
#include "render/template_engine.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::render;

TEST_CASE("data built for a template renders as the same data given as JSON")
{
  auto data = template_object();
  put(data, "title", std::string("EAGLE <fast>"));
  put(data, "count", 3);
  put(data, "big", std::uint64_t{18446744073709551615ULL});
  put(data, "negative", -7);
  put(data, "yes", true);
  put(data, "no", false);
  put(data, "view", std::string_view("seen"));
  auto items = template_list();
  for (const char* name : {"a", "b"}) {
    put(append(items, template_object()), "name", name);
  }
  put(data, "items", std::move(items));
  put(data, "empty", template_list());
  const nlohmann::json json = {{"title", "EAGLE <fast>"},
                               {"count", 3},
                               {"big", 18446744073709551615ULL},
                               {"negative", -7},
                               {"yes", true},
                               {"no", false},
                               {"view", "seen"},
                               {"items", {{{"name", "a"}}, {{"name", "b"}}}},
                               {"empty", nlohmann::json::array()}};
  const std::string text =
      "{{title}} {{count}} {{big}} {{negative}} {{view}}\n"
      "{{#items}}- {{name}}\n{{/items}}{{^empty}}none{{/empty}} {{#yes}}Y{{/yes}}{{^no}}!N{{/no}}\n";
  const auto out = render_template(text, data, "t");
  CHECK(out == "EAGLE <fast> 3 18446744073709551615 -7 seen\n- a\n- b\nnone Y!N\n");
  CHECK(out == render_template(text, json, "t"));
}

TEST_CASE("a list grown item by item keeps every item and what it holds")
{
  auto list = template_list();
  for (int i = 0; i < 100; ++i) {
    auto& item = append(list, template_object());
    put(item, "i", i);
    auto inner = template_list(1);
    append(inner, template_text(std::string(40, static_cast<char>('a' + i % 26))));
    put(item, "inner", std::move(inner));
  }
  auto data = template_object();
  put(data, "list", std::move(list));
  const auto out = render_template("{{#list}}{{i}}:{{#inner}}{{.}}{{/inner}},{{/list}}", data, "t");
  std::string expected;
  for (int i = 0; i < 100; ++i) {
    expected += std::to_string(i) + ":" + std::string(40, static_cast<char>('a' + i % 26)) + ",";
  }
  CHECK(out == expected);
}

TEST_CASE("putting a name twice keeps the last value")
{
  auto data = template_object();
  put(data, "median", false);
  put(data, "median", std::string("1.5"));
  put(data, "flag", std::string("x"));
  put(data, "flag", false);
  CHECK(render_template("[{{median}}][{{#flag}}set{{/flag}}]", data, "t") == "[1.5][]");
}

TEST_CASE("a strict template names an unknown name in data built for templates too")
{
  auto data = template_object();
  put(data, "title", "x");
  TemplateOptions options;
  options.strict = true;
  try {
    render_template("{{title}}\n{{titel}}\n", data, "plan.md.mustache", options);
    FAIL("no error");
  } catch (const ej::Error& error) {
    CHECK(std::string(error.what()).find("line 2") != std::string::npos);
    CHECK(std::string(error.what()).find("'titel'") != std::string::npos);
  }
}
