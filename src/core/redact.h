#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// What ej keeps out of the journal: the one place that decides what a secret looks like. Every
// event payload and blob goes through a Redactor before it is written (store::Writer), and the
// environment snapshot and captured output are redacted with it as they are made.
namespace ej::core {

inline constexpr std::string_view k_redacted = "<redacted>";

// Whether a variable's name says it holds a secret: TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
// PASS, KEY, CREDENTIAL(S), CREDS, AUTH, BEARER, COOKIE, SESSION, PRIVATE, ... in any case.
bool secret_name(std::string_view name);

// "https://user:pw@host" -> "https://<redacted>@host", for every URL in the text.
std::string redact_url_credentials(std::string_view text);

// Well-known token shapes (GitHub ghp_/gho_/ghs_/ghu_/ghr_/github_pat_, Hugging Face hf_, AWS
// AKIA..., Slack xoxb-/xoxp-, OpenAI-style sk-, JWTs eyJ....eyJ....sig, PEM private key blocks)
// replaced by <redacted>.
std::string redact_token_shapes(std::string_view text);

// The values of secret flags written with '=' ("--token=X", "--password='a b'") replaced by
// <redacted>; a value that names the environment ("--token=$HF_TOKEN") is kept.
std::string redact_secret_flags(std::string_view text);

// A command-line argument that carries a secret (--password=X, --token X, --api-key=X, a token or
// URL credentials), described for the refusal; nullopt when the arguments look harmless. A value
// that is a reference to the environment ("$HF_TOKEN") is harmless.
std::optional<std::string> secret_argument(const std::vector<std::string>& argv);

// Redacts text: the values of secret variables it was given, then URL credentials, token shapes
// and the values of secret flags (--password=X).
class Redactor {
public:
  Redactor() = default;
  // The values of the secret-named variables of this process's environment.
  static Redactor from_environment();

  // Remembers the values of the secret-named variables among NAME=VALUE entries or pairs.
  void add_environment(const std::vector<std::string>& entries);
  void add_variables(const std::vector<std::pair<std::string, std::string>>& variables);
  // A value to hide wherever it occurs (ignored when too short to be told from ordinary text).
  void add_value(std::string_view value);

  std::string redact(std::string_view text) const;
  // Redacts every string of the document (object keys included) in place; true when one changed.
  bool redact_json(nlohmann::json& document) const;

  const std::vector<std::string>& values() const { return m_values; }

private:
  std::vector<std::string> m_values; // longest first, so a value inside another does not split it
};

// Values shorter than this are not hidden by value: "1" or "true" would blank out ordinary text;
// nor are absolute paths, nor letters-only words under 12 characters.
inline constexpr std::size_t k_min_secret_value = 6;

} // namespace ej::core
