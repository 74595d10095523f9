#include "support/runs.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <thread>

namespace ej::test {

nlohmann::json show_run(const EjRepo& repo, int run, bool output)
{
  std::vector<std::string> args{"show", "run", std::to_string(run), "--json"};
  if (output) {
    args.emplace_back("--output");
  }
  return nlohmann::json::parse(repo.ok(args));
}

std::vector<double> samples_of(const nlohmann::json& run, const std::string& metric,
                               const std::string& params)
{
  std::vector<double> out;
  for (const auto& series : run.at("series")) {
    if (series.at("metric") == metric && series.at("params") == params) {
      for (const auto& value : series.at("samples")) {
        out.push_back(value.get<double>());
      }
    }
  }
  return out;
}

int measured_repeats(const nlohmann::json& run)
{
  int count = 0;
  for (const auto& repeat : run.at("repeats")) {
    count += repeat.at("warmup").get<bool>() ? 0 : 1;
  }
  return count;
}

bool process_alive(int pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) {
    return false;
  }
  // "pid (comm) S ...": the state follows the last ')'.
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

bool wait_gone(int pid, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (process_alive(pid)) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

bool wait_for_file(const std::filesystem::path& path, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::error_code ec;
  while (!std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

} // namespace ej::test
