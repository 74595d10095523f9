#include "render/template_engine.h"
#include "render/templates.h"

#include "util/error.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using ej::render::render_template;
using ej::render::TemplateOptions;

namespace {

std::string error_of(std::string_view text, const nlohmann::json& data = {},
                     const TemplateOptions& options = {})
{
  try {
    render_template(text, data, "plan.md.mustache", options);
  } catch (const ej::Error& error) {
    return error.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("a template renders objects, lists, strings, numbers and booleans from JSON")
{
  const auto data = nlohmann::json::parse(R"({
    "title": "EAGLE <fast> & verify",
    "count": 3, "big": 18446744073709551615, "negative": -7, "ratio": 0.1, "whole": 92.0,
    "attempts": [{"name": "a"}, {"name": "b"}],
    "empty": [], "yes": true, "no": false, "nothing": null,
    "nested": {"inner": {"value": "deep"}}
  })");
  const auto out = render_template(
      "# {{title}} {{{title}}} {{&title}}\n"
      "{{count}} {{big}} {{negative}} {{ratio}} {{whole}}\n"
      "{{#attempts}}- {{name}}\n{{/attempts}}"
      "{{#empty}}never{{/empty}}{{^empty}}no attempts{{/empty}}\n"
      "{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{#nothing}}X{{/nothing}}[{{nothing}}]\n"
      "{{nested.inner.value}}\n",
      data, "t");
  CHECK(out == "# EAGLE <fast> & verify EAGLE <fast> & verify EAGLE <fast> & verify\n"
               "3 18446744073709551615 -7 0.1 92\n"
               "- a\n- b\n"
               "no attempts\n"
               "Y!N[]\n"
               "deep\n");
}

TEST_CASE("rendering the same data twice gives identical bytes")
{
  const auto data = nlohmann::json::parse(R"({"b": 1.5e-7, "a": [1, 2.25, 1e300]})");
  const std::string text = "{{b}} {{#a}}{{.}},{{/a}}";
  CHECK(render_template(text, data, "t") == render_template(text, data, "t"));
  CHECK(render_template(text, data, "t") == "1.5e-07 1,2.25,1e+300,");
}

TEST_CASE("an unclosed section is reported with the template name and its line")
{
  const auto message = error_of("# x\n\n{{#attempts}}\n- {{name}}\n");
  CHECK(message == "template plan.md.mustache, line 3: unclosed section 'attempts'; fix the template");
}

TEST_CASE("a section closed that was never opened is reported with its line")
{
  CHECK(error_of("a\nb\nc {{/attempts}}\n") ==
        "template plan.md.mustache, line 3: unopened section 'attempts'; fix the template");
}

TEST_CASE("an unclosed tag is reported with its line and the caller's hint")
{
  TemplateOptions options;
  options.fix_hint = "fix the template or run without --template";
  CHECK(error_of("line one\nline {{two\n", {}, options) ==
        "template plan.md.mustache, line 2: unclosed tag; fix the template or run without --template");
}

TEST_CASE("a section closed with the wrong name is an error")
{
  CHECK_THAT(error_of("{{#a}}\n{{/b}}\n"), Catch::Contains("line 1: unclosed section 'a'"));
}

TEST_CASE("an invalid set-delimiter tag is an error with a line")
{
  CHECK_THAT(error_of("\n\n{{=<% =}}\n"), Catch::Contains("line 3: invalid set delimiter tag"));
}

TEST_CASE("a missing partial is an error naming the partial and its line")
{
  CHECK(error_of("one\n{{> attempt_row}}\n") ==
        "template plan.md.mustache, line 2: partial 'attempt_row' not found; fix the template");
}

TEST_CASE("partials come from the options and see the current context")
{
  TemplateOptions options;
  options.partials["row"] = "| {{name}} |\n";
  const auto data = nlohmann::json::parse(R"({"rows": [{"name": "a"}, {"name": "b"}]})");
  CHECK(render_template("{{#rows}}{{> row}}{{/rows}}", data, "t", options) == "| a |\n| b |\n");
}

TEST_CASE("a syntax error in a partial names the partial and its own line")
{
  TemplateOptions options;
  options.partials["row"] = "x\n{{#open}}\n";
  CHECK(error_of("{{> row}}", {}, options) ==
        "template plan.md.mustache (partial 'row'), line 2: unclosed section 'open'; fix the template");
}

TEST_CASE("an unknown name renders empty by default and is an error when strict")
{
  CHECK(render_template("[{{titel}}]", nlohmann::json::object(), "t") == "[]");
  TemplateOptions options;
  options.strict = true;
  CHECK(error_of("ok\n[{{titel}}]", nlohmann::json::object(), options) ==
        "template plan.md.mustache, line 2: 'titel' is not in the data; fix the template");
  CHECK(render_template("{{#xs}}{{x}}{{top}}{{/xs}}",
                        nlohmann::json::parse(R"({"top": "T", "xs": [{"x": 1}]})"), "t", options) == "1T");
}

TEST_CASE("embedded templates are found with or without the .mustache suffix")
{
  REQUIRE(ej::render::embedded_templates().count("plan.md.mustache") == 1);
  CHECK(ej::render::embedded_template("plan.md.mustache").has_value());
  CHECK(ej::render::embedded_template("plan.md") == ej::render::embedded_template("plan.md.mustache"));
  CHECK_FALSE(ej::render::embedded_template("nope.md").has_value());
}

TEST_CASE("a section that does not render leaves no blank line, so markdown lists stay tight")
{
  const std::string text =
      "- a\n{{#no}}\n- b\n{{/no}}\n{{#yes}}\n- c\n{{/yes}}\n- d\n{{#yes}}\n\nafter a blank line\n{{/yes}}\n";
  const auto out =
      ej::render::render_template(text, nlohmann::json{{"no", false}, {"yes", true}}, "list.mustache");
  CHECK(out == "- a\n- c\n- d\n\nafter a blank line\n");
}

TEST_CASE("a blank line after a section keeps its place whether or not the section rendered")
{
  const std::string text = "{{#list}}\n- {{.}}\n{{/list}}\n\nafter\n{{#no}}\nx\n{{/no}}\n\nend\n";
  const auto out = ej::render::render_template(text, nlohmann::json{{"list", {"a", "b"}}, {"no", false}},
                                               "blank.mustache", {{}, true});
  CHECK(out == "- a\n- b\n\nafter\n\nend\n");
}

TEST_CASE("a blank line after a section's closing tag stays, whether the section rendered or not")
{
  const std::string text =
      "{{#list}}\n- {{.}}\n{{/list}}\n\nnext\n{{#yes}}\n{{#no}}\nx\n{{/no}}\n{{/yes}}\n\nlast\n";
  const nlohmann::json with_items = {{"list", {"a", "b"}}, {"yes", true}, {"no", false}};
  CHECK(render_template(text, with_items, "blank.mustache") == "- a\n- b\n\nnext\n\nlast\n");
  const nlohmann::json empty = {{"list", nlohmann::json::array()}, {"yes", false}, {"no", false}};
  CHECK(render_template(text, empty, "blank.mustache") == "\nnext\n\nlast\n");
}

TEST_CASE("tags with blanks inside the braces, comments and a delimiter change render as Mustache says")
{
  const auto data = nlohmann::json::parse(R"({"name": "a <b> & c", "flag": true, "items": ["x", "y"]})");
  CHECK(render_template("{{ name }}|{{& name }}|{{{ name }}}|{{ #flag }}F{{ /flag }}|{{ ^flag }}N{{ /flag }}"
                        "{{! a comment, {{ opening inside }}|{{#items}}{{ . }}{{/items}}\n",
                        data, "t") == "a <b> & c|a <b> & c|a <b> & c|F||xy\n");
  // After {{=<% %>=}} braces are text, and the new delimiters are tags.
  CHECK(render_template("{{name}} {{=<% %>=}}{{name}} <%name%> <%#flag%>F<%/flag%>\n", data, "t") ==
        "a <b> & c {{name}} a <b> & c F\n");
}

namespace {

std::string nested(std::string_view open, std::string_view close, int depth, std::string_view name = "a",
                   std::string_view body = "", char sigil = '#')
{
  std::string out;
  for (int i = 0; i < depth; ++i) {
    out += fmt::format("{}{}{}{}", open, sigil, name, close);
  }
  out += body;
  for (int i = 0; i < depth; ++i) {
    out += fmt::format("{}/{}{}", open, name, close);
  }
  return out;
}

} // namespace

TEST_CASE("sections nested past the depth bound are refused before kainjow parses them")
{
  const auto data = nlohmann::json::parse(R"({"a": true})");
  CHECK(render_template(nested("{{", "}}", 100), data, "t") == "");
  CHECK_THAT(error_of(nested("{{", "}}", 101), data), Catch::Contains("deeper than 100 levels"));
  // Changed delimiters are followed, inverted sections count, and {{{x}}} is no section.
  CHECK_THAT(error_of("{{{a}}}{{=<% %>=}}" + nested("<%", "%>", 101), data), Catch::Contains("line 1"));
  CHECK_THAT(error_of("x\n" + nested("{{", "}}", 60, "a", nested("{{", "}}", 41, "b", "", '^')), data),
             Catch::Contains("line 2") && Catch::Contains("deeper than 100"));
  // Partials are bounded too.
  TemplateOptions options;
  const auto deep = nested("{{", "}}", 200); // partials are views: the text must outlive the render
  options.partials.emplace("deep", deep);
  CHECK_THAT(error_of("{{> deep}}", data, options), Catch::Contains("partial 'deep'"));
}

TEST_CASE("a render stops at the output and expansion bounds with a message")
{
  const auto data = nlohmann::json::parse(R"({"a": [1, 2], "s": "0123456789"})");
  TemplateOptions options;
  options.max_output_bytes = 1 << 20;
  // 2^20 copies of a 10-byte string: 10 MiB.
  CHECK_THAT(error_of(nested("{{", "}}", 20, "a", "{{s}}"), data, options),
             Catch::Contains("plan.md.mustache") && Catch::Contains("output passes 1 MiB"));
  options.max_tag_expansions = 100'000;
  std::string silent = nested("{{", "}}", 40);
  CHECK_THAT(error_of(silent, data, options), Catch::Contains("expands more than 100000 tags"));
  CHECK(render_template(nested("{{", "}}", 3, "a", "{{s}}"), data, "t", options).size() == 80);
}
