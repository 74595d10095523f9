#include "measuring/output_digests.h"

#include "util/hash.h"

#include <set>

namespace ej::measuring {

namespace {

// The whole of stdout: the capture when nothing was cut, else the copy it kept of the stream.
std::string stdout_digest(const run::Capture& capture)
{
  if (capture.cut_bytes == 0) {
    return util::sha256_hex(capture.text());
  }
  if (capture.whole && capture.whole->ok()) {
    // Read again from the start through its own descriptor, in pieces.
    const auto path = std::filesystem::path("/proc/self/fd") / std::to_string(capture.whole->fd());
    return util::sha256_file(path).value_or("unreadable");
  }
  return "unreadable";
}

} // namespace

bool OutputDigests::active() const
{
  return m_same.kind == core::SameOutput::Kind::Stdout || m_same.kind == core::SameOutput::Kind::File;
}

void OutputDigests::add(const std::string& params, const run::ProcessResult& result,
                        const std::filesystem::path& cwd)
{
  if (!active()) {
    return;
  }
  std::string digest;
  if (m_same.kind == core::SameOutput::Kind::Stdout) {
    digest = stdout_digest(result.out);
  } else {
    std::error_code error;
    const auto path = cwd / m_same.name;
    digest = std::filesystem::is_regular_file(path, error) ? util::sha256_file(path).value_or("unreadable")
                                                           : "missing";
  }
  const auto [it, first] = m_digests.emplace(params, digest);
  if (!first && it->second != digest) {
    m_varies[params] = true;
  }
}

nlohmann::json OutputDigests::to_json() const
{
  auto varies = nlohmann::json::array();
  for (const auto& [params, yes] : m_varies) {
    varies.push_back(params);
  }
  return {{"kind", m_same.kind == core::SameOutput::Kind::Stdout ? "stdout" : "file"},
          {"name", m_same.name},
          {"digests", m_digests},
          {"varies", varies}};
}

nlohmann::json merged_digests(const nlohmann::json& earlier, const nlohmann::json& later)
{
  if (!earlier.is_object()) {
    return later;
  }
  if (!later.is_object()) {
    return earlier;
  }
  auto out = later;
  auto& digests = out["digests"];
  std::set<std::string> varies;
  for (const auto& params : later.value("varies", nlohmann::json::array())) {
    varies.insert(params.get<std::string>());
  }
  for (const auto& params : earlier.value("varies", nlohmann::json::array())) {
    varies.insert(params.get<std::string>());
  }
  const auto earlier_digests = earlier.value("digests", nlohmann::json::object());
  for (const auto& [params, digest] : earlier_digests.items()) {
    if (!digests.contains(params)) {
      digests[params] = digest;
    } else if (digests[params] != digest) {
      varies.insert(params);
    }
  }
  out["varies"] = varies;
  return out;
}

} // namespace ej::measuring
