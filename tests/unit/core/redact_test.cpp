#include "core/redact.h"

#include <catch2/catch.hpp>

using namespace ej::core;

TEST_CASE("secret-looking names are recognised in any case, by word and by whole segment")
{
  for (const auto* name : {"HF_TOKEN", "aws_secret_access_key", "DB_Password", "NCCL_IB_AUTH", "NCCL_IB_PASS",
                           "CUDA_PASSPHRASE", "NVIDIA_API_BEARER", "MYAPP_CREDS", "MYAPP_SESSION",
                           "GPG_PRIVATE", "SERVICE_PW", "GITHUB_PAT", "MY_API_KEY", "browser-cookie"}) {
    INFO(name);
    CHECK(secret_name(name));
  }
  for (const auto* name : {"NCCL_ALGO", "PATH", "PWD", "OLDPWD", "COMPASS_DIR", "CUDA_VISIBLE_DEVICES",
                           "HOME", "PATHWAY", "OMP_NUM_THREADS"}) {
    INFO(name);
    CHECK_FALSE(secret_name(name));
  }
}

TEST_CASE("credentials inside URLs are redacted, the host and path kept")
{
  CHECK(redact_url_credentials("a git+https://tok@github.com/x.git b https://plain.org/") ==
        "a git+https://<redacted>@github.com/x.git b https://plain.org/");
  CHECK(redact_url_credentials("https://user:pw@host:8080/p?q=1") == "https://<redacted>@host:8080/p?q=1");
  CHECK(redact_url_credentials("no url here, a@b") == "no url here, a@b");
  CHECK(redact_url_credentials("https://<redacted>@host") == "https://<redacted>@host");
}

TEST_CASE("well-known token shapes are redacted where a word starts")
{
  const std::string ghp = "ghp_" + std::string(36, 'A');
  CHECK(redact_token_shapes("token=" + ghp + " ok") == "token=<redacted> ok");
  CHECK(redact_token_shapes("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz") == "<redacted>");
  CHECK(redact_token_shapes("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH\n") == "HF_TOKEN=<redacted>\n");
  CHECK(redact_token_shapes("key AKIAIOSFODNN7EXAMPLE.") == "key <redacted>.");
  CHECK(redact_token_shapes("xoxb-1234567890-abcdefghij") == "<redacted>");
  CHECK(redact_token_shapes("xoxp-1234567890-abcdefghij") == "<redacted>");
  CHECK(redact_token_shapes("sk-proj-abcdefghijklmnopqrstuvwx") == "<redacted>");
  CHECK(redact_token_shapes("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
                            "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end") ==
        "Authorization: Bearer <redacted> end");
  CHECK(redact_token_shapes(
            "x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE "
            "KEY-----\ny") == "x\n<redacted>\ny");
  CHECK(redact_token_shapes("-----BEGIN RSA PRIVATE KEY-----\nMIIEcut") == "<redacted>");
  CHECK(redact_token_shapes("[... cut ...]\nQkFTRTY0\n-----END RSA PRIVATE KEY-----\nafter") ==
        "<redacted>\nafter");

  // Ordinary text that merely resembles the prefixes stays.
  for (const auto* text :
       {"disk-abcdefghijklmnopqrstuvwxyz", "sk-short", "hf_small", "ghp_tooshort", "AKIAIOSFODNN7EXAMPLEMORE",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "eyJ.not.a.jwt",
        "thf_abcdefghijklmnopqrstuvwxyz", "tokens/s 96.1"}) {
    INFO(text);
    CHECK(redact_token_shapes(text) == text);
  }
}

TEST_CASE("a redactor hides the values of secret variables, longest first, and token shapes")
{
  Redactor redactor;
  redactor.add_environment({"NCCL_IB_PASS=hunter22", "NCCL_ALGO=Tree", "XDG_SESSION_TYPE=wayland",
                            "A_TOKEN=abc", "LONG_SECRET=hunter22-and-more", "KEY_FILE=/etc/key.pem",
                            "MY_SESSION=benchmark"});
  CHECK(redactor.values() == std::vector<std::string>{"hunter22-and-more", "hunter22"});
  CHECK(redactor.redact("pw hunter22-and-more, hunter22, Tree on wayland; abc benchmark") ==
        "pw <redacted>, <redacted>, Tree on wayland; abc benchmark");
  CHECK(redactor.redact("clone https://me:pw@example.com/r hf_abcdefghijklmnopqrstuvwxyz") ==
        "clone https://<redacted>@example.com/r <redacted>");
  redactor.add_variables({{"HF_TOKEN", "passed-with-run-env"}, {"SIZE", "4096-4096"}});
  CHECK(redactor.redact("passed-with-run-env 4096-4096") == "<redacted> 4096-4096");
}

TEST_CASE("a redactor rewrites every string of a JSON document, keys included")
{
  Redactor redactor;
  redactor.add_value("s3cr3t-value");
  nlohmann::json document = {
      {"reason", "failed: s3cr3t-value"}, {"list", {"ok", "x s3cr3t-value"}}, {"s3cr3t-value", 1}, {"n", 2}};
  CHECK(redactor.redact_json(document));
  CHECK(document ==
        nlohmann::json{
            {"reason", "failed: <redacted>"}, {"list", {"ok", "x <redacted>"}}, {"<redacted>", 1}, {"n", 2}});
  CHECK_FALSE(redactor.redact_json(document));
}

TEST_CASE("secret arguments are found by flag, by token shape and by URL credentials, not by reference")
{
  CHECK(secret_argument({"./bench", "--password=hunter2"}) == "the argument --password passes a secret");
  CHECK(secret_argument({"./bench", "--token", "abc"}) == "the argument --token passes a secret");
  CHECK(secret_argument({"./bench", "--hf-token=x"}).has_value());
  CHECK(secret_argument({"./bench", "--api-key", "x"}).has_value());
  CHECK(secret_argument({"./bench", "--url", "https://u:p@host/"}).has_value());
  CHECK(secret_argument({"./bench", "hf_abcdefghijklmnopqrstuvwxyz"}).has_value());
  CHECK_FALSE(secret_argument({"./bench", "--token", "$HF_TOKEN"}).has_value());
  CHECK_FALSE(secret_argument({"./bench", "--token", "\"$HF_TOKEN\""}).has_value());
  CHECK_FALSE(secret_argument({"./bench", "--token-file", "tok.txt"}).has_value());
  CHECK_FALSE(secret_argument({"./bench", "--key", "size", "--max-tokens", "128"}).has_value());
  // "--" alone (set -- 10 14, a shell benchmark's words) is no flag: it was an out-of-range substr.
  CHECK_FALSE(secret_argument({"set", "--", "10", "14"}).has_value());
  CHECK_FALSE(secret_argument({"./bench", "--size", "4096", "--password"}).has_value());
}

TEST_CASE(
    "the values of secret flags written with '=' are redacted in any text, references and look-alikes kept")
{
  CHECK(redact_secret_flags("--token=tok-5678") == "--token=<redacted>");
  CHECK(redact_secret_flags("./serve --password=pw-1234 --port=80") ==
        "./serve --password=<redacted> --port=80");
  CHECK(redact_secret_flags("run \"--api-key='a b c'\" now") == "run \"--api-key=<redacted>\" now");
  CHECK(redact_secret_flags("-pass=xyz12") == "-pass=<redacted>");
  CHECK(redact_secret_flags("--token=$HF_TOKEN --max-tokens=128 --key=size") ==
        "--token=$HF_TOKEN --max-tokens=128 --key=size");
  CHECK(redact_secret_flags("--token-file=tok.txt a--token=x --token handling") ==
        "--token-file=tok.txt a--token=x --token handling");
  CHECK(redact_secret_flags("--token=") == "--token=");
  Redactor redactor;
  CHECK(redactor.redact("why: --password=hunter2") == "why: --password=<redacted>");
}
