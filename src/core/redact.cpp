#include "core/redact.h"

#include <algorithm>
#include <array>
#include <cctype>

extern char** environ;

namespace ej::core {

namespace {

bool is_alnum(char c)
{
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string upper(std::string_view text)
{
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// The name split at every character that is not a letter or digit: "NCCL_IB_PASS" -> NCCL, IB, PASS.
std::vector<std::string> segments(const std::string& name)
{
  std::vector<std::string> parts;
  std::string part;
  for (const char c : name) {
    if (is_alnum(c)) {
      part += c;
    } else if (!part.empty()) {
      parts.push_back(std::move(part));
      part.clear();
    }
  }
  if (!part.empty()) {
    parts.push_back(std::move(part));
  }
  return parts;
}

// Words that mark a secret wherever they occur in a name, and short ones only as a whole segment
// ("NCCL_IB_PASS" but not "COMPASS_DIR"; "PW" but not "PWD", the working directory).
constexpr std::array k_secret_words = {"TOKEN",  "SECRET",     "PASSWORD", "PASSWD", "PASSPHRASE",
                                       "KEY",    "CREDENTIAL", "CREDS",    "AUTH",   "BEARER",
                                       "COOKIE", "SESSION",    "PRIVATE",  "APIKEY", "SIGNATURE"};
constexpr std::array k_secret_segments = {"PASS", "PW", "CRED", "PAT", "JWT", "OTP"};

// Secret-named variables whose values are ordinary words or sockets: hidden by name in snapshots,
// but their values are not hunted for in every text.
bool harmless_value_source(const std::string& name)
{
  return name.rfind("XDG_", 0) == 0 || name.rfind("DBUS_", 0) == 0 || name == "SSH_AUTH_SOCK" ||
         name == "DESKTOP_SESSION" || name == "GDMSESSION" || name.rfind("GNOME_KEYRING", 0) == 0 ||
         name == "GPG_AGENT_INFO";
}

bool token_char(char c)
{
  return is_alnum(c) || c == '_' || c == '-';
}

bool base64url_char(char c)
{
  return is_alnum(c) || c == '_' || c == '-';
}

// The length of the run of characters satisfying pred from at.
template <typename Pred> std::size_t run_of(std::string_view text, std::size_t at, Pred pred)
{
  std::size_t end = at;
  while (end < text.size() && pred(text[end])) {
    ++end;
  }
  return end - at;
}

// The length of a PEM private key block starting at `at` ("-----BEGIN ... PRIVATE KEY-----"),
// through its END line (or the end of the text when it was cut); 0 when there is none.
std::size_t pem_private_key(std::string_view text, std::size_t at)
{
  constexpr std::string_view begin = "-----BEGIN ";
  if (text.substr(at, begin.size()) != begin) {
    return 0;
  }
  const auto label_end = text.find("-----", at + begin.size());
  if (label_end == std::string_view::npos || label_end - at > 80 ||
      text.substr(at, label_end - at).find("PRIVATE KEY") == std::string_view::npos) {
    return 0;
  }
  const auto end = text.find("-----END ", label_end + 5);
  if (end == std::string_view::npos) {
    return text.size() - at;
  }
  const auto close = text.find("-----", end + 9);
  return close == std::string_view::npos ? text.size() - at : close + 5 - at;
}

// The length of a well-known token starting at `at`, or 0.
std::size_t token_at(std::string_view text, std::size_t at)
{
  const auto rest = text.substr(at);
  const auto starts = [&](std::string_view prefix) { return rest.substr(0, prefix.size()) == prefix; };
  const auto alnum_run = [&](std::size_t from) { return run_of(text, at + from, is_alnum); };
  if (starts("github_pat_")) {
    const auto n = run_of(text, at + 11, [](char c) { return is_alnum(c) || c == '_'; });
    return n >= 20 ? 11 + n : 0;
  }
  if (rest.size() > 4 && rest[0] == 'g' && rest[1] == 'h' &&
      std::string_view("pousr").find(rest[2]) != std::string_view::npos && rest[3] == '_') {
    const auto n = alnum_run(4);
    return n >= 20 ? 4 + n : 0;
  }
  if (starts("hf_")) {
    const auto n = alnum_run(3);
    return n >= 20 ? 3 + n : 0;
  }
  if (starts("AKIA") || starts("ASIA")) {
    const auto n = run_of(text, at + 4, [](char c) {
      return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c));
    });
    return n == 16 && (at + 20 == text.size() || !is_alnum(text[at + 20])) ? 20 : 0;
  }
  if (rest.size() > 5 && starts("xox") &&
      std::string_view("bpaors").find(rest[3]) != std::string_view::npos && rest[4] == '-') {
    const auto n = run_of(text, at + 5, token_char);
    return n >= 10 ? 5 + n : 0;
  }
  if (starts("sk-")) {
    const auto n = run_of(text, at + 3, token_char);
    return n >= 20 ? 3 + n : 0;
  }
  if (starts("eyJ")) {
    std::size_t length = 0;
    for (int part = 0; part < 3; ++part) {
      const auto n = run_of(text, at + length, base64url_char);
      if (n < 10) {
        return 0;
      }
      length += n;
      if (part < 2) {
        if (at + length >= text.size() || text[at + length] != '.') {
          return 0;
        }
        ++length;
      }
    }
    return length;
  }
  return pem_private_key(text, at);
}

void replace_all(std::string& text, std::string_view value)
{
  for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + k_redacted.size())) {
    text.replace(at, value.size(), k_redacted);
  }
}

// Flag names that announce a secret value: a whole word of the flag, so that --hf-token and
// --password=X are caught but --max-tokens 128 and --key size are not.
bool secret_flag(std::string_view flag)
{
  const auto parts = segments(upper(flag));
  if (parts.empty()) {
    return false;
  }
  const auto& last = parts.back();
  if (last == "FILE" || last == "PATH" || last == "DIR" || last == "ENV" || last == "VAR") {
    return false; // --token-file PATH names where the secret is, which is what ej asks for
  }
  constexpr std::array k_words = {"PASSWORD", "PASSWD", "PASSPHRASE", "PASS",        "PW",
                                  "TOKEN",    "SECRET", "CREDENTIAL", "CREDENTIALS", "CREDS",
                                  "BEARER",   "APIKEY", "AUTH",       "COOKIE"};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (const std::string_view word : k_words) {
      if (parts[i] == word) {
        return true;
      }
    }
    if (parts[i] == "KEY" && i > 0 &&
        (parts[i - 1] == "API" || parts[i - 1] == "ACCESS" || parts[i - 1] == "PRIVATE" ||
         parts[i - 1] == "SECRET")) {
      return true;
    }
  }
  return false;
}

bool flag_char(char c)
{
  return is_alnum(c) || c == '_' || c == '-';
}

// The length of the value of a secret flag written with '=' that starts at `at` ("--token=X",
// "-password='a b'"), or 0. Values that name the environment ("$HF_TOKEN") are no secret. Only the
// '=' form: in prose or output "--token handling" is no flag with a value.
std::size_t secret_flag_value(std::string_view text, std::size_t at, std::size_t& value_at)
{
  if (text[at] != '-' || (at > 0 && !std::isspace(static_cast<unsigned char>(text[at - 1])) &&
                          text[at - 1] != '"' && text[at - 1] != '\'' && text[at - 1] != '(')) {
    return 0;
  }
  const std::size_t dashes = at + 1 < text.size() && text[at + 1] == '-' ? 2 : 1;
  const auto name_at = at + dashes;
  const auto name_length = run_of(text, name_at, flag_char);
  const auto equals = name_at + name_length;
  if (name_length == 0 || equals >= text.size() || text[equals] != '=' ||
      !secret_flag(text.substr(name_at, name_length))) {
    return 0;
  }
  value_at = equals + 1;
  if (value_at >= text.size() || text[value_at] == '$' || text.substr(value_at).starts_with(k_redacted)) {
    return 0;
  }
  const char quote = text[value_at];
  if (quote == '"' || quote == '\'') {
    const auto close = text.find(quote, value_at + 1);
    return (close == std::string_view::npos ? text.size() : close + 1) - value_at;
  }
  const auto end = text.find_first_of(" \t\r\n\"'", value_at);
  return (end == std::string_view::npos ? text.size() : end) - value_at;
}

// A text with spans replaced by the redaction mark, built from left to right.
class Redaction {
public:
  explicit Redaction(std::string_view text) : m_text(text) {}

  // Replaces the span of `length` at `at` (after any span replaced before); returns the last
  // position it covered, where a scan goes on from.
  std::size_t replace(std::size_t at, std::size_t length)
  {
    m_result.append(m_text.substr(m_done, at - m_done));
    m_result.append(k_redacted);
    m_done = at + length;
    return m_done - 1;
  }

  std::string result() &&
  {
    if (m_done == 0) {
      return std::string(m_text);
    }
    m_result.append(m_text.substr(m_done));
    return std::move(m_result);
  }

private:
  std::string_view m_text;
  std::string m_result;
  std::size_t m_done = 0;
};

} // namespace

std::string redact_secret_flags(std::string_view text)
{
  Redaction redaction(text);
  for (auto at = text.find('-'); at != std::string_view::npos; at = text.find('-', at + 1)) {
    std::size_t value_at = 0;
    const auto length = secret_flag_value(text, at, value_at);
    if (length > 0) {
      at = redaction.replace(value_at, length);
    }
  }
  return std::move(redaction).result();
}

bool secret_name(std::string_view name)
{
  const auto name_upper = upper(name);
  for (const std::string_view word : k_secret_words) {
    if (name_upper.find(word) != std::string::npos) {
      return true;
    }
  }
  for (const auto& part : segments(name_upper)) {
    for (const std::string_view word : k_secret_segments) {
      if (part == word) {
        return true;
      }
    }
  }
  return false;
}

std::string redact_url_credentials(std::string_view text)
{
  std::string result;
  std::size_t done = 0;
  for (std::size_t scheme = text.find("://"); scheme != std::string_view::npos;
       scheme = text.find("://", done)) {
    const std::size_t start = scheme + 3;
    const std::size_t end = text.find_first_of("/ \t\r\n\"'<>", start);
    const std::string_view authority = text.substr(start, end == std::string_view::npos ? end : end - start);
    const std::size_t at = authority.rfind('@');
    result.append(text.substr(done, start - done));
    done = start;
    if (at != std::string_view::npos && authority.substr(0, at) != k_redacted) {
      result.append(k_redacted);
      done = start + at;
    }
  }
  result.append(text.substr(done));
  return result;
}

// A bounded capture keeps the tail of an output: a private key whose BEGIN line was cut leaves
// its body before an END line. Everything from the start of the text to that END line goes.
std::string_view orphan_key_tail(std::string_view text)
{
  const auto end = text.find("PRIVATE KEY-----");
  if (end == std::string_view::npos) {
    return {};
  }
  const auto end_line = text.rfind("-----END ", end);
  if (end_line == std::string_view::npos || end - end_line > 80 ||
      text.substr(0, end_line).find("-----BEGIN ") != std::string_view::npos) {
    return {};
  }
  return text.substr(0, end + 16);
}

std::string redact_token_shapes(std::string_view text)
{
  if (const auto tail = orphan_key_tail(text); !tail.empty()) {
    return std::string(k_redacted) + redact_token_shapes(text.substr(tail.size()));
  }
  Redaction redaction(text);
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (at > 0 && is_alnum(text[at - 1])) {
      continue; // a token starts a word: "disk-" holds no "sk-" token
    }
    const auto length = token_at(text, at);
    if (length > 0) {
      at = redaction.replace(at, length);
    }
  }
  return std::move(redaction).result();
}

std::optional<std::string> secret_argument(const std::vector<std::string>& argv)
{
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (redact_url_credentials(arg) != arg) {
      return "argument " + std::to_string(i + 1) + " holds credentials inside a URL";
    }
    if (redact_token_shapes(arg) != arg) {
      return "argument " + std::to_string(i + 1) + " holds what looks like an access token or a private key";
    }
    if (arg.size() < 2 || arg[0] != '-') {
      continue;
    }
    const auto equals = arg.find('=');
    const auto flag = std::string_view(arg).substr(0, equals);
    const auto name = flag.find_first_not_of('-');
    if (name == std::string_view::npos || !secret_flag(flag.substr(name))) { // "--" ends options: no flag
      continue;
    }
    std::string_view value;
    if (equals != std::string::npos) {
      value = std::string_view(arg).substr(equals + 1);
    } else if (i + 1 < argv.size() && !argv[i + 1].empty() && argv[i + 1][0] != '-') {
      value = argv[i + 1];
    }
    value.remove_prefix(std::min(value.size(), value.find_first_not_of("\"'")));
    if (!value.empty() && value.front() != '$') {
      return "the argument " + std::string(flag) + " passes a secret";
    }
  }
  return std::nullopt;
}

Redactor Redactor::from_environment()
{
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  Redactor redactor;
  redactor.add_environment(entries);
  return redactor;
}

void Redactor::add_environment(const std::vector<std::string>& entries)
{
  std::vector<std::pair<std::string, std::string>> variables;
  for (const auto& entry : entries) {
    const auto equals = entry.find('=');
    if (equals != std::string::npos) {
      variables.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
    }
  }
  add_variables(variables);
}

void Redactor::add_variables(const std::vector<std::pair<std::string, std::string>>& variables)
{
  for (const auto& [name, value] : variables) {
    if (secret_name(name) && !harmless_value_source(name)) {
      add_value(value);
    }
  }
}

void Redactor::add_value(std::string_view value)
{
  // An absolute path is where a secret is, not the secret (SSH_AUTH_SOCK, *_KEY_FILE).
  if (value.size() < k_min_secret_value || value.front() == '/' || value == k_redacted) {
    return;
  }
  // A short plain word ("benchmark" in MY_SESSION) would blank out ordinary text; secrets mix in
  // digits or punctuation, or are long.
  const bool plain_word = std::all_of(
      value.begin(), value.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
  if (plain_word && value.size() < 12) {
    return;
  }
  if (std::find(m_values.begin(), m_values.end(), value) != m_values.end()) {
    return;
  }
  m_values.emplace_back(value);
  std::stable_sort(m_values.begin(), m_values.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string Redactor::redact(std::string_view text) const
{
  std::string out(text);
  for (const auto& value : m_values) {
    replace_all(out, value);
  }
  return redact_secret_flags(redact_token_shapes(redact_url_credentials(out)));
}

bool Redactor::redact_json(nlohmann::json& document) const
{
  bool changed = false;
  if (document.is_string()) {
    auto& text = document.get_ref<std::string&>();
    auto redacted = redact(text);
    if (redacted != text) {
      text = std::move(redacted);
      changed = true;
    }
  } else if (document.is_array()) {
    for (auto& item : document) {
      changed = redact_json(item) || changed;
    }
  } else if (document.is_object()) {
    std::vector<std::pair<std::string, std::string>> renamed;
    for (auto& [key, value] : document.items()) {
      changed = redact_json(value) || changed;
      if (auto new_key = redact(key); new_key != key) {
        renamed.emplace_back(key, std::move(new_key));
      }
    }
    for (const auto& [from, to] : renamed) {
      auto value = std::move(document[from]);
      document.erase(from);
      document[to] = std::move(value);
      changed = true;
    }
  }
  return changed;
}

} // namespace ej::core
