#pragma once

#include <CLI/CLI.hpp>

#include <string>

// Shell completion scripts made from the command tree itself (ej completion bash|zsh|fish).
namespace ej::cli {

std::string bash_completion(const CLI::App& root);
std::string zsh_completion(const CLI::App& root);
std::string fish_completion(const CLI::App& root);

} // namespace ej::cli
