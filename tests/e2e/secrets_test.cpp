// Secrets kept out of the journal and its documents (redaction by name, by value and by shape),
// secret arguments refused at the door, and ej purge for a value that got in anyway.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

using namespace ej::test;
using nlohmann::json;

namespace {

// Every file the journal keeps (database, -wal, -shm, backups, config) and every rendered document,
// read as bytes, that contains `needle`.
std::vector<std::string> files_containing(const EjRepo& repo, const std::string& needle)
{
  std::vector<std::string> found;
  for (const auto& dir : {repo.db_path().parent_path(), repo.path() / "journal"}) {
    if (!std::filesystem::exists(dir)) {
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file() && read_text(entry.path()).find(needle) != std::string::npos) {
        found.push_back(entry.path().string());
      }
    }
  }
  return found;
}

std::string query_text(const EjRepo& repo, const std::string& sql)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(repo.db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  std::string text;
  while (sqlite3_step(statement) == SQLITE_ROW) {
    const auto* value = sqlite3_column_text(statement, 0);
    text += value != nullptr ? reinterpret_cast<const char*>(value) : "";
    text += "\n";
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return text;
}

// The text for a shell command that prints `secret` without the command holding it: sh joins
// "ab''cd" into "abcd", so the definition (which is stored) does not show the secret.
std::string unquoted_pieces(const std::string& secret)
{
  return secret.substr(0, 4) + "''" + secret.substr(4);
}

const std::string k_hf = "hf_QpWmZrTx7yLkS2dVbN9cFgHj4aE6uIo";
const std::string k_ghp = "ghp_" + std::string("Zy8XwV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8cB");
const std::string k_jwt =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlamJvdCIsImlhdCI6MTcwMDAwMDAwMH0.Hq3nS7kX1bV9cW2mZ5rT8yU4iO6pL0aQ";
const std::string k_akia = "AKIAZ7QW3ERT5YUI9OPA";
const std::string k_pem_body = "MIIEpAIBAAKCAQEA7secretkeymaterialXyZ";

} // namespace

TEST_CASE("secrets printed by a benchmark or a probe, typed into reasons or held in ej's environment never "
          "reach the journal or the rendered document")
{
  EjRepo repo;
  const std::map<std::string, std::string> env = {
      {"NCCL_IB_PASS", "ibpass-4242"},
      {"CUDA_PASSPHRASE", "phrase-9191"},
      {"NVIDIA_API_BEARER", "bearer-3131"},
      {"MYAPP_SESSION", "sess-7272"},
      {"GPG_PRIVATE", "priv-6363"},
      {"GITHUB_TOKEN", k_ghp},
      {"PIP_INDEX_URL", "https://bob:urlpw-8888@pypi.example.com/s"}};
  repo.ok({"plan", "new", "p", "--title", "Secrets"});
  repo.ok({"try", "leaky", "--plan", "p", "--hypothesis", "key " + k_akia + " helps"}, env);
  repo.ok({"env", "probe", "add", "leak", "--shell", "echo $CUDA_PASSPHRASE $GITHUB_TOKEN $PIP_INDEX_URL"},
          env);
  repo.ok({"bench", "add", "ok", "--repeat", "2", "--shell",
           "echo \"$NCCL_IB_PASS $NVIDIA_API_BEARER $MYAPP_SESSION $GPG_PRIVATE\" " + unquoted_pieces(k_hf) +
               "; echo " + unquoted_pieces(k_jwt) + " >&2"},
          env);
  repo.ok({"run", "ok", "--attempt", "1", "--quiet"}, env);
  repo.ok(
      {"bench", "add", "bad", "--repeat", "1", "--shell",
       "printf '%s\\n' '-----BEGIN RSA PRIV''ATE KEY-----' '" + unquoted_pieces(k_pem_body) +
           "' '-----END RSA PRIV''ATE KEY-----' >&2; echo \"login with $MYAPP_CREDS failed\" >&2; exit 3"},
      env);
  const auto failed = repo.ej({"run", "bad", "--quiet", "--env", "MYAPP_CREDS=creds-5151"}, env);
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.err, Catch::Contains("login with <redacted> failed"));
  repo.ok({"status", "1", "rejected", "--reason", "token was " + k_jwt}, env);
  repo.ok({"note", "1",
           "-----BEGIN OPENSSH PRIVATE KEY-----\n" + k_pem_body + "\n-----END OPENSSH PRIVATE KEY-----"},
          env);
  repo.ok({"plan", "render", "p"}, env);

  // What was kept is still useful: the run is there, the redacted places say so.
  const auto run = show_run(repo, 2, true);
  CHECK(run["status"] == "failed");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("login with <redacted> failed"));
  CHECK_THAT(show_run(repo, 1, true)["stdout"].get<std::string>(), Catch::Contains("<redacted>"));
  CHECK_THAT(repo.ok({"env", "show", "1"}), Catch::Contains("variables.NCCL_IB_PASS: <redacted>"));

  for (const auto& secret :
       {std::string("ibpass-4242"), std::string("phrase-9191"), std::string("bearer-3131"),
        std::string("sess-7272"), std::string("priv-6363"), std::string("creds-5151"),
        std::string("urlpw-8888"), k_hf, k_ghp, k_jwt, k_akia, k_pem_body}) {
    INFO(secret);
    CHECK(files_containing(repo, secret).empty());
  }
  CHECK(repo.ok({"fsck", "--full"}).find("is ok") != std::string::npos);
}

TEST_CASE("a secret flag typed into an attempt's command or a status reason is stored redacted")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Secrets"});
  repo.ok({"try", "serve with auth", "--plan", "p", "--command", "./serve --token=tok-5678 --port=8080"});
  repo.ok({"status", "1", "rejected", "--reason=--password=pw-1234 was refused by the server"});
  repo.ok({"try", "from the environment", "--plan", "p", "--command", "./serve --token=$HF_TOKEN"});
  const auto shown = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(shown["command"] == "./serve --token=<redacted> --port=8080");
  CHECK_THAT(shown["reason"].get<std::string>(), Catch::Contains("--password=<redacted> was refused"));
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["command"] == "./serve --token=$HF_TOKEN");
  for (const auto* secret : {"tok-5678", "pw-1234"}) {
    INFO(secret);
    CHECK(files_containing(repo, secret).empty());
  }
}

TEST_CASE("a secret in a benchmark's command line or definition is refused, with the way to pass it")
{
  EjRepo repo;
  const auto password = repo.ej({"bench", "add", "b", "--", "./bench", "--password=pw-1234"});
  CHECK(password.exit_code == 2);
  CHECK_THAT(password.err, Catch::Contains("--password") && Catch::Contains("environment"));
  CHECK(repo.ej({"bench", "add", "b", "--", "./bench", "--token", "tok-5678"}).exit_code == 2);
  CHECK(repo.ej({"bench", "add", "b", "--shell", "./bench --api-key key-2468"}).exit_code == 2);
  CHECK(repo.ej({"bench", "add", "b", "--", "curl", "https://al:urlpw-1357@example.com/"}).exit_code == 2);
  const auto url_env =
      repo.ej({"bench", "add", "b", "--env", "DB_URL=https://al:urlpw-9753@db/x", "--", "true"});
  CHECK(url_env.exit_code == 2);
  CHECK_THAT(url_env.err, Catch::Contains("holds a credential"));
  CHECK(repo.ej({"bench", "add", "b", "--env", "NCCL_IB_PASS=ibpass-1", "--", "true"}).exit_code == 2);
  for (const auto* secret : {"pw-1234", "tok-5678", "key-2468", "urlpw-1357", "urlpw-9753", "ibpass-1"}) {
    INFO(secret);
    CHECK(files_containing(repo, secret).empty());
  }
  // A reference to the environment is what ej asks for; ordinary options that merely resemble
  // secret ones pass.
  repo.ok({"bench", "add", "b", "--shell", "./bench --token \"$HF_TOKEN\" --max-tokens 128"});
  repo.ok({"bench", "add", "c", "--", "./bench", "--token-file", "tok.txt", "--key", "size"});
}

TEST_CASE("ej purge rewrites every stored copy of a leaked value, records that it did, and the journal stays "
          "consistent")
{
  EjRepo repo;
  const std::string leak = "Zq8plainleak";
  repo.ok({"plan", "new", "p", "--title", "Purge"});
  repo.ok({"try", "an attempt", "--plan", "p", "--hypothesis", "the password is " + leak});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--shell", "echo printed Zq8plain''leak"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"note", "1", "again: " + leak});
  repo.ok({"plan", "render", "p"});
  REQUIRE_FALSE(files_containing(repo, leak).empty());

  CHECK(repo.ej({"purge", "--secret", "Zq"}).exit_code == 1); // too short to tell from ordinary text
  const auto out = repo.ok({"purge", "--secret", leak});
  CHECK_THAT(out, Catch::Contains("purged the value from") && Catch::Contains("blob(s)"));
  repo.ok({"plan", "render", "p"});
  CHECK(files_containing(repo, leak).empty());

  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("the password is <redacted>"));
  CHECK(show_run(repo, 1, true)["stdout"] == "printed <redacted>\n");
  CHECK_THAT(repo.ok({"fsck", "--full"}), Catch::Contains("is ok"));
  const auto purge_events = query_text(repo, "SELECT payload FROM events WHERE type = 'journal.purged'");
  CHECK_THAT(purge_events, Catch::Contains("\"events\":") && Catch::Contains("\"blobs\":1"));
  // Writing goes on as before, and the purge's own event replays.
  repo.ok({"note", "1", "after the purge"});
  repo.ok({"reindex"});
  CHECK_THAT(repo.ok({"fsck", "--full"}), Catch::Contains("is ok"));
}
