#include "render/frozen_data.h"
#include "render/template_engine.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::render;

namespace {

// The same attempt written both ways.
FrozenWriter frozen_attempt(int number)
{
  FrozenWriter out;
  out.put("number", number);
  out.put("title", std::string("fused allreduce"));
  out.put("dirty", false);
  out.put("has_runs", true);
  out.begin_list("tags");
  out.item("nccl");
  out.item("cuda-graphs");
  out.end_list();
  out.begin_list("runs");
  for (int run = 1; run <= 3; ++run) {
    out.begin_object();
    out.put("number", run * 10 + number);
    if (run == 2) {
      out.put("median", std::string("27.80"));
    } else {
      out.put("median", false); // as a document's data says "no median"
    }
    out.put("verdict", run != 3);
    out.begin_list("notes");
    out.end_list();
    out.end_object();
  }
  out.end_list();
  out.begin_list("empty");
  out.end_list();
  return out;
}

TemplateData plain_attempt(int number)
{
  auto out = template_object();
  put(out, "number", number);
  put(out, "title", std::string("fused allreduce"));
  put(out, "dirty", false);
  put(out, "has_runs", true);
  auto tags = template_list();
  append(tags, template_text("nccl"));
  append(tags, template_text("cuda-graphs"));
  put(out, "tags", std::move(tags));
  auto runs = template_list();
  for (int run = 1; run <= 3; ++run) {
    auto& entry = append(runs, template_object());
    put(entry, "number", run * 10 + number);
    if (run == 2) {
      put(entry, "median", std::string("27.80"));
    } else {
      put(entry, "median", false);
    }
    put(entry, "verdict", run != 3);
    put(entry, "notes", template_list());
  }
  put(out, "runs", std::move(runs));
  put(out, "empty", template_list());
  return out;
}

TemplateData document(bool frozen, int count = 2)
{
  auto root = template_object();
  put(root, "plan", std::string("eagle"));
  auto attempts = template_list();
  for (int number = 1; number <= count; ++number) {
    append(attempts, frozen ? frozen_attempt(number).take_frozen() : plain_attempt(number));
  }
  put(root, "attempts", std::move(attempts));
  return root;
}

} // namespace

TEST_CASE("frozen items render exactly as the data they were written from")
{
  // Outer names are seen from inside a thawed item; each item is thawed as often as a section
  // enters it (here twice).
  const std::string text = "{{#attempts}}## #{{number}} {{title}} ({{plan}}){{#dirty}} dirty{{/dirty}}\n"
                           "tags: {{#tags}}{{.}} {{/tags}}\n"
                           "{{#runs}}- run {{number}}{{#median}}: {{median}}{{/median}}"
                           "{{#verdict}} judged{{/verdict}}{{^notes}} no notes{{/notes}}\n{{/runs}}"
                           "{{^empty}}(empty){{/empty}}\n{{/attempts}}"
                           "again: {{#attempts}}{{number}}{{#runs}}.{{number}}{{/runs}} {{/attempts}}\n";
  const auto plain = render_template(text, document(false), "t");
  CHECK(render_template(text, document(true), "t") == plain);
  CHECK_THAT(plain, Catch::Contains("## #1 fused allreduce (eagle)\ntags: nccl cuda-graphs \n"
                                    "- run 11 judged no notes\n- run 21: 27.80 judged no notes\n"
                                    "- run 31 no notes\n(empty)\n"));
  CHECK_THAT(plain, Catch::EndsWith("again: 1.11.21.31 2.12.22.32 \n"));
  // Strict templates see the thawed names, and only those.
  TemplateOptions strict;
  strict.strict = true;
  CHECK_NOTHROW(render_template(text, document(true), "t", strict));
  CHECK_THROWS_WITH(render_template("{{#attempts}}{{nothing}}{{/attempts}}", document(true), "t", strict),
                    Catch::Contains("'nothing' is not in the data"));
}

TEST_CASE("a frozen item thaws into the object written, and nothing else is taken for one")
{
  auto frozen = frozen_attempt(7).take_frozen();
  const auto* bytes = frozen_bytes(frozen);
  REQUIRE(bytes != nullptr);
  const auto thawed = thaw(*bytes);
  REQUIRE(thawed.is_object());
  CHECK(thawed.get("number")->string_value() == "7");
  CHECK(thawed.get("dirty")->is_false());
  CHECK(thawed.get("tags")->list_value().size() == 2);
  CHECK(thawed.get("runs")->list_value().size() == 3);
  CHECK(thawed.get("runs")->list_value()[1].get("median")->string_value() == "27.80");
  CHECK(thawed.get("empty")->is_empty_list());
  CHECK(frozen_bytes(plain_attempt(7)) == nullptr);
  CHECK(frozen_bytes(template_text("x")) == nullptr);
  CHECK(frozen_bytes(template_list()) == nullptr);
  // Bytes cut short are an error that says so, never a crash or a partial document.
  CHECK_THROWS_AS(thaw(bytes->substr(0, bytes->size() / 2)), ej::Error);
  CHECK_THROWS_AS(thaw(*bytes + "S"), ej::Error);
  CHECK_THROWS_AS(thaw("S" + std::string(12, '\xff')), ej::Error); // a length past any size
  // A list item outside a list is a bug of the writer's caller, said as such.
  FrozenWriter writer;
  CHECK_THROWS_WITH(writer.item("x"), Catch::Contains("bug in ej"));
  CHECK_THROWS_WITH(writer.end_list(), Catch::Contains("bug in ej"));
}

TEST_CASE("a long list of frozen items is thawed ahead on a thread and renders exactly as its data")
{
  // 300 attempts: past the length worth a thread (template_engine.cpp), rendered twice over in
  // one template (the second pass thaws what the thread gave back already), and once in part.
  const std::string text =
      "{{#attempts}}#{{number}} {{title}} {{#tags}}{{.}},{{/tags}}"
      "{{#runs}} {{number}}{{#median}}={{median}}{{/median}}{{/runs}}\n{{/attempts}}"
      "again: {{#attempts}}{{number}} {{/attempts}}\n"
      "runs only: {{#attempts}}{{#runs}}{{#verdict}}{{number}} {{/verdict}}{{/runs}}{{/attempts}}\n";
  const auto plain = render_template(text, document(false, 300), "t");
  for (int repeat = 0; repeat < 5; ++repeat) { // the threads' timing differs from one to the next
    CHECK(render_template(text, document(true, 300), "t") == plain);
  }
  CHECK_THAT(plain, Catch::Contains("#300 fused allreduce nccl,cuda-graphs, 310 320=27.80 330\nagain: 1 2 "));
  CHECK_THAT(plain, Catch::Contains("299 300 \nruns only: 11 21 12 22 13 23 "));
  CHECK_THAT(plain, Catch::EndsWith(" 310 320 \n"));
}

TEST_CASE("a damaged item in a long frozen list fails the render with an error, thawed ahead or not")
{
  auto root = document(true, 100);
  const auto good = frozen_attempt(1).take_frozen();
  auto cut = *frozen_bytes(good);
  cut.resize(cut.size() / 2);
  auto damaged = template_list(1);
  append(damaged, template_text(cut));
  REQUIRE(frozen_bytes(damaged) != nullptr); // it looks frozen
  auto attempts = template_list();
  for (const auto& item : root.get("attempts")->list_value()) {
    append(attempts, TemplateData(item));
    if (attempts.list_value().size() == 50) {
      append(attempts, std::move(damaged));
    }
  }
  put(root, "attempts", std::move(attempts));
  CHECK_THROWS_WITH(render_template("{{#attempts}}{{number}} {{/attempts}}", root, "t"),
                    Catch::Contains("damaged document data"));
}

TEST_CASE("a long frozen list visited inside its own section renders as its data, never waiting forever")
{
  // The inner section passes the thread while it may still be at an earlier item; the outer one
  // then comes back to items taken or passed (a review found this waiting for nothing).
  const std::string text = "{{#attempts}}{{number}}:{{#attempts}}{{number}},{{/attempts}} {{/attempts}}";
  const auto plain = render_template(text, document(false, 60), "t");
  for (int repeat = 0; repeat < 5; ++repeat) {
    CHECK(render_template(text, document(true, 60), "t") == plain);
  }
  CHECK_THAT(plain, Catch::StartsWith("1:1,2,3,"));
  CHECK_THAT(plain, Catch::EndsWith("60:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,"
                                    "28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,"
                                    "53,54,55,56,57,58,59,60, "));
}
