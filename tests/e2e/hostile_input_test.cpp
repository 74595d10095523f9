// Input that is hostile or odd: numbers that are not finite, a damaged stored definition, control
// characters in user text, arguments that are not UTF-8, a journal reached through a symlink.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

using namespace ej::test;
using nlohmann::json;

namespace {

void exec_sql(const EjRepo& repo, const std::string& sql)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(repo.db_path().c_str(), &db) == SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  INFO((error != nullptr ? error : ""));
  sqlite3_free(error);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

bool has_raw_control(const std::string& text)
{
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && u != '\n' && u != '\t') || u == 0x7f) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_CASE("numeric options that are not finite numbers are refused at the door")
{
  EjRepo repo;
  const std::vector<std::vector<std::string>> cases = {{"--timeout", "nan"},    {"--timeout", "inf"},
                                                       {"--budget", "inf"},     {"--max-noise", "nan"},
                                                       {"--min-effect", "nan"}, {"--timeout", "1e999"}};
  for (const auto& options : cases) {
    auto args = std::vector<std::string>{"bench", "add", "b"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", "true"});
    const auto result = repo.ej(args);
    INFO(options[0] << " " << options[1] << ": " << result.err);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("not a finite number"));
  }
  CHECK(repo.ej({"env", "probe", "add", "p", "--timeout", "inf", "--", "true"}).exit_code == 2);
  repo.ok({"bench", "add", "b", "--timeout", "5", "--", "true"});
  CHECK(repo.ej({"bench", "edit", "b", "--timeout", "nan"}).exit_code == 2);
  CHECK(json::parse(repo.ok({"bench", "show", "b", "--json"}))["revisions"].size() == 1);
}

TEST_CASE(
    "a damaged stored definition is reported where it is read, the rest is listed, and an edit repairs it")
{
  EjRepo repo;
  repo.ok({"bench", "add", "good", "--repeat", "1", "--", "true"});
  repo.ok({"bench", "add", "bad", "--repeat", "1", "--timeout", "5", "--", "true"});
  // What an older ej stored for --timeout nan: null. Inserted as an event, then the tables rebuilt.
  exec_sql(repo,
           "INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload) "
           "SELECT '01ZZZZZZZZZZZZZZZZZZZZZZZZ', replica, lamport + 100, 'bench.edited', 1, time_ms + 1, "
           "json_set(json_set(payload, '$.revision', 2), '$.definition.timeout_s', json('null')) "
           "FROM events WHERE type = 'bench.added' AND json_extract(payload, '$.name') = 'bad'");
  repo.ok({"reindex"});

  const auto list = repo.ej({"bench", "list"});
  CHECK(list.exit_code == 0);
  CHECK_THAT(list.out, Catch::Contains("good") && Catch::Contains("bad") && Catch::Contains("damaged"));
  CHECK_THAT(list.err, Catch::Contains("benchmark bad revision 2 is damaged: timeout_s is null"));
  CHECK(json::parse(repo.ok({"bench", "list", "--json"})).size() == 2);

  const auto show = repo.ej({"bench", "show", "bad"});
  CHECK(show.exit_code == 0);
  CHECK_THAT(show.out, Catch::Contains("damaged:  timeout_s is null") && Catch::Contains("--timeout"));

  const auto run = repo.ej({"run", "bad", "--quiet"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("revision 2 is damaged") && Catch::Contains("ej bench edit bad"));
  repo.ok({"run", "good", "--quiet"});

  const auto edit = repo.ok({"bench", "edit", "bad", "--timeout", "7"});
  CHECK_THAT(edit, Catch::Contains("revision 3"));
  repo.ok({"run", "bad", "--quiet"});
  CHECK_THAT(repo.ok({"bench", "show", "bad"}), Catch::Contains("timeout:  7 s"));
  CHECK_THAT(repo.ok({"fsck", "--full"}), Catch::Contains("is ok"));
}

TEST_CASE("control characters in user text are shown in visible form on the terminal and in documents")
{
  EjRepo repo;
  const std::string title = "fast \x1b[31mred\x1b[0m path\x07";
  repo.ok({"plan", "new", "p", "--title", "Plan \x1b]0;pwned\x07"});
  repo.ok({"try", title, "--plan", "p", "--hypothesis", "clear\x1b[2J screen"});
  repo.ok({"status", "1", "rejected", "--reason", "bell\x07 and\rreturn"});
  repo.ok({"note", "1", "del\x7f char, a tab\tand a\nnew line"});
  repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "printf 'x\\033[1m'; echo fine >&2; exit 1"});
  CHECK(repo.ej({"run", "b", "--quiet", "--attempt", "1"}).exit_code == 1);
  repo.ok({"plan", "render", "p"});

  for (const auto& args : std::vector<std::vector<std::string>>{{"log"},
                                                                {"show", "1"},
                                                                {"plan", "show", "p"},
                                                                {"plan", "list"},
                                                                {"bench", "show", "b"},
                                                                {"show", "run", "1", "--output"}}) {
    const auto out = repo.ok(args);
    INFO(args[0] << ": " << out);
    CHECK_FALSE(has_raw_control(out));
  }
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("fast ␛[31mred␛[0m path␇"));
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("bell␇ and␍return"));
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("del␡ char, a tab\tand a"));
  const auto document = read_text(repo.path() / "journal" / "p.md");
  CHECK_FALSE(has_raw_control(document));
  CHECK_THAT(document, Catch::Contains("␛"));
}

TEST_CASE("control characters in events an older ej wrote raw are shown in visible form all the same")
{
  // An ej from before visible forms wrote them as they came; its events arrive here by import (or
  // sync) unchanged, as every event does.
  EjRepo older;
  older.ok({"plan", "new", "p", "--title", "P"});
  older.ok({"try", "fast XESCX[31mred path", "--plan", "p", "--hypothesis", "bellXBELX"});
  auto exported = older.ok({"export"});
  for (const auto& [mark, escaped] : {std::pair{"XESCX", "\\u001b"}, std::pair{"XBELX", "\\u0007"}}) {
    for (auto at = exported.find(mark); at != std::string::npos; at = exported.find(mark)) {
      exported.replace(at, std::string_view(mark).size(), escaped);
    }
  }
  write_text(older.path() / "old.jsonl", exported);
  EjRepo repo;
  repo.ok({"import", (older.path() / "old.jsonl").string()});
  for (const auto& args : std::vector<std::vector<std::string>>{{"log"}, {"show", "1"}, {"search", "fast"}}) {
    const auto out = repo.ok(args);
    INFO(args[0] << ": " << out);
    CHECK_FALSE(has_raw_control(out));
  }
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("fast ␛[31mred path"));
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("bell␇"));
  // The event itself is kept as it came: its id and bytes are the same on every replica.
  CHECK_THAT(repo.ok({"export"}), Catch::Contains("\\u001b[31mred"));
  repo.ok({"reindex"});
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("fast ␛[31mred path"));
}

TEST_CASE("an argument that is not valid UTF-8 reaches the benchmark byte for byte")
{
  EjRepo repo;
  const std::string latin1 = "caf\xe9-\xff\xfe";
  repo.ok(
      {"bench", "add", "b", "--repeat", "1", "--", "sh", "-c", "printf %s \"$1\" > arg.bin", "sh", latin1});
  repo.ok({"run", "b", "--quiet"});
  CHECK(read_text(repo.path() / "arg.bin") == latin1);
  // The stored definition is valid JSON and says which bytes it holds.
  const auto definition =
      json::parse(repo.ok({"bench", "show", "b", "--json"}))["revisions"][0]["definition"];
  CHECK(definition["argv"][4] == json{{"hex", "636166e92dfffe"}});
  // Elsewhere bytes that are not UTF-8 would be changed: refused, with the way that keeps them.
  const auto shell = repo.ej({"bench", "add", "s", "--shell", "echo " + latin1});
  CHECK(shell.exit_code == 2);
  CHECK_THAT(shell.err, Catch::Contains("as an argument after --"));
  CHECK(repo.ej({"bench", "add", "s", "--env", "X=" + latin1, "--", "true"}).exit_code == 2);
  repo.ok({"bench", "edit", "b", "--repeat", "2"});
  repo.ok({"run", "b", "--quiet"});
  CHECK(read_text(repo.path() / "arg.bin") == latin1);
}

TEST_CASE("a journal reached through a symbolic link is refused with a clear message")
{
  EjRepo repo;
  const auto ej_dir = repo.db_path().parent_path();
  const auto elsewhere = repo.path() / "elsewhere";
  std::filesystem::rename(ej_dir, elsewhere);
  std::filesystem::create_directory_symlink(elsewhere, ej_dir);
  auto result = repo.ej({"log"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("is a symbolic link") && Catch::Contains(ej_dir.string()));

  std::filesystem::remove(ej_dir);
  std::filesystem::create_directory(ej_dir);
  std::filesystem::create_symlink(elsewhere / "journal.db", repo.db_path());
  result = repo.ej({"try", "x", "--plan", "p"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("journal.db is a symbolic link"));
}

TEST_CASE("a stored target or measure this ej cannot read is left out and said, never silently")
{
  EjRepo repo;
  repo.ok({"bench", "add", "verify", "--metric", "verify_ms=regex:verify_ms=([0-9.]+)", "--", "true"});
  repo.ok({"plan", "new", "p", "--title", "t", "--measure", "verify", "--target", "verify_ms < 15"});
  // As a newer ej might store them: a target and a measure in forms this one does not know.
  exec_sql(repo, "UPDATE plan_measures SET targets = targets || char(10) || 'verify_ms ~~ 3', "
                 "measures = measures || char(10) || 'serve::' WHERE plan = 'p'");
  const auto shown = repo.ej({"plan", "show", "p"});
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("verify_ms < 15"));
  CHECK_THAT(shown.err, Catch::Contains("warning: plan p: the target 'verify_ms ~~ 3' cannot be read") &&
                            Catch::Contains("the measure 'serve::' cannot be read") &&
                            Catch::Contains("left out"));
  const auto rendered = repo.ej({"plan", "render", "p"});
  CHECK(rendered.exit_code == 0);
  CHECK_THAT(rendered.err, Catch::Contains("the target 'verify_ms ~~ 3' cannot be read"));
}
