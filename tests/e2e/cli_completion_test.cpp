// Item 8 of issue 13: completions and the man page, made from the command tree, in real shells.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>

using namespace ej::test;

namespace {

std::string script(const std::string& shell)
{
  TempDir dir;
  const auto result = run_ej(dir.path(), {"completion", shell});
  REQUIRE(result.exit_code == 0);
  return result.out;
}

// What bash's completion function offers for the words typed (the last one is being completed).
std::string bash_offers(const std::filesystem::path& file, const std::vector<std::string>& words)
{
  std::string array;
  for (const auto& word : words) {
    array += " '" + word + "'";
  }
  const auto program = "source " + file.string() + "\nCOMP_WORDS=(ej" + array +
                       ")\nCOMP_CWORD=" + std::to_string(words.size()) +
                       "\n_ej\nfor w in \"${COMPREPLY[@]}\"; do echo \"$w\"; done\n";
  const auto result =
      run_command({"bash", "--norc", "--noprofile", "-c", program}, {file.parent_path(), {}, {}});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

} // namespace

TEST_CASE("bash completion offers commands, subcommands, options and their values")
{
  TempDir dir;
  const auto file = dir / "ej.bash";
  write_text(file, script("bash"));
  write_text(dir / "notes.txt", "");
  CHECK(bash_offers(file, {"lo"}) == "log\n");
  CHECK(bash_offers(file, {"plan", "u"}) == "use\n");
  CHECK(bash_offers(file, {"--no-pager", "plan", "re"}) == "render\n");
  CHECK(bash_offers(file, {"log", "--pl"}) == "--plan\n");
  CHECK(bash_offers(file, {"log", "--color", ""}) == "auto\nalways\nnever\n");
  CHECK(bash_offers(file, {"log", "--color", "=", "al"}) == "always\n");
  CHECK(bash_offers(file, {"completion", ""}) == "bash\nzsh\nfish\n");
  CHECK(bash_offers(file, {"plan", "show", "--plan-typo", "--js"}) == "--json\n");
  // A value of an option is not taken for a command, nor is what follows "--".
  CHECK(bash_offers(file, {"log", "--plan", "plan", "--js"}) == "--json\n");
  CHECK(bash_offers(file, {"bench", "add", "b", "--", "note"}) == "notes.txt\n");
  CHECK(bash_offers(file, {"zzz"}).empty());
}

TEST_CASE("the zsh and fish scripts parse, and fish completes from them")
{
  TempDir dir;
  write_text(dir / "_ej", script("zsh"));
  write_text(dir / "ej.fish", script("fish"));
  const auto zsh = run_command({"zsh", "-n", (dir / "_ej").string()});
  INFO(zsh.err);
  CHECK(zsh.exit_code == 0);
  const auto fish = run_command({"fish", "-n", (dir / "ej.fish").string()});
  INFO(fish.err);
  CHECK(fish.exit_code == 0);

  const auto complete = [&](const std::string& line) {
    const auto result =
        run_command({"fish", "--no-config", "-c",
                     "source " + (dir / "ej.fish").string() + "; complete -C '" + line + "'"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return result.out;
  };
  CHECK_THAT(complete("ej plan u"), Catch::StartsWith("use\t"));
  CHECK_THAT(complete("ej log --pl"), Catch::StartsWith("--plan\t"));
  CHECK_THAT(complete("ej log --color "),
             Catch::StartsWith("always\t") && Catch::Contains("\nauto\t") && Catch::Contains("\nnever\t"));

  // zsh runs the function too: loaded through compinit, asked for the words after "ej plan ".
  const auto zsh_run = run_command(
      {"zsh", "-f", "-c",
       "fpath=(" + dir.path().string() +
           " $fpath); autoload -Uz compinit; compinit -u -D; (( $+functions[_ej] )) || autoload -Uz _ej; "
           "whence -w _ej"});
  INFO(zsh_run.err);
  CHECK_THAT(zsh_run.out, Catch::Contains("_ej: function"));
}

TEST_CASE("the man page is built with ej, renders in man, and lists every command")
{
  const std::filesystem::path page = std::filesystem::path(EJ_BUILD_DIR) / "ej.1";
  REQUIRE(std::filesystem::exists(page));
  TempDir dir;
  CHECK(read_text(page) == run_ej(dir.path(), {"help", "--man"}).out);
  const auto man = run_command({"man", "--warnings", "-P", "cat", "-l", page.string()},
                               {dir.path(), {{"MANWIDTH", "100"}}, {}});
  INFO(man.err);
  CHECK(man.exit_code == 0);
  CHECK(man.err.empty());
  CHECK_THAT(man.out, Catch::Contains("ej plan use") && Catch::Contains("ej completion [OPTIONS] SHELL") &&
                          Catch::Contains("EXIT STATUS") && Catch::Contains("ej try \"NCCL_ALGO=Tree\""));
}

TEST_CASE("cmake --install puts the binary, the man page and the completions where shells look")
{
  TempDir prefix;
  const auto install = run_command({"cmake", "--install", EJ_BUILD_DIR, "--prefix", prefix.path().string()});
  INFO(install.err);
  REQUIRE(install.exit_code == 0);
  const auto root = prefix.path();
  CHECK(std::filesystem::exists(root / "bin" / "ej"));
  CHECK(std::filesystem::exists(root / "share" / "man" / "man1" / "ej.1"));
  CHECK_THAT(read_text(root / "share" / "bash-completion" / "completions" / "ej"),
             Catch::Contains("complete -o filenames -F _ej ej"));
  CHECK_THAT(read_text(root / "share" / "zsh" / "vendor-completions" / "_ej"),
             Catch::StartsWith("#compdef ej"));
  CHECK_THAT(read_text(root / "share" / "fish" / "vendor_completions.d" / "ej.fish"),
             Catch::Contains("complete -c ej"));
  const auto version = run_command({(root / "bin" / "ej").string(), "--version"});
  CHECK_THAT(version.out, Catch::StartsWith("ej "));
}
