#include "cli/examples.h"

#include "cli/command_tree.h"

#include <map>
#include <stdexcept>

namespace ej::cli {

namespace {

// One or two examples per command, by command path; commands whose registration already writes
// its examples (compare, judge, sync, export, checkout, rerun, fsck) are not here. A unit test
// checks that every command has examples and that every path here names a command.
const std::map<std::string, std::vector<std::string>>& example_table()
{
  static const std::map<std::string, std::vector<std::string>> table{
      {"", {"ej init && ej plan new eagle-fast-verify --title \"EAGLE-3 fast verify\"", "ej help run"}},
      {"init", {"ej init"}},
      {"plan",
       {"ej plan new eagle-fast-verify --title \"EAGLE-3 fast verify\" --target \"verify_ms < 15\"",
        "ej plan use eagle-fast-verify"}},
      {"plan new",
       {"ej plan new eagle-fast-verify --title \"EAGLE-3 fast verify\" --target \"verify_ms < 15\"",
        "ej plan new nccl-tuning --title \"NCCL tuning\" --doc docs/nccl.md"}},
      {"plan list", {"ej plan list", "ej plan list --json"}},
      {"plan show", {"ej plan show eagle-fast-verify", "ej plan show --json"}},
      {"plan baseline",
       {"ej plan baseline eagle-fast-verify", "ej plan baseline --run r7 --reason \"CUDA 13.0\"",
        "ej plan baseline --reason \"stock SGLang 0.4, CUDA 12.8\"   # the current pin's reason"}},
      {"plan render",
       {"ej plan render eagle-fast-verify", "ej plan render --check", "ej plan render --json"}},
      {"report", {"ej report eagle-fast-verify --html eagle.html"}},
      {"try",
       {"ej try \"NCCL_ALGO=Tree\" --plan eagle-fast-verify --hypothesis \"fewer hops at 8 GPUs\"",
        "ej try \"cuda-graph-max-bs 16\" --tag cuda-graphs   # in the current plan",
        "ej try \"NCCL_ALGO=Ring\" --json   # the new attempt as ej log --json lists it"}},
      {"status",
       {"ej status 12 rejected --reason \"2% slower at batch 1\"",
        "ej status 12 blocked --reason \"needs CUDA 13\""}},
      {"note",
       {"ej note 12 \"profile shows the allreduce waiting on rank 3\"",
        "ej note 12 \"rerun on CUDA 13\" --json"}},
      {"attempt", {"ej attempt edit 12 --title \"NCCL_ALGO=Ring\""}},
      {"attempt edit",
       {"ej attempt edit 12 --title \"NCCL_ALGO=Ring\" --tag nccl --untag wip",
        "ej attempt edit 4 --blocked-by 8   # found later: #4 needs #8 first",
        "ej attempt edit 4 --unblock 3",
        "ej attempt edit 9 --retry-of 4     # a blocked #4 reads 'resolved by #9' once #9 is adopted"}},
      {"log", {"ej log -n 10", "ej log --status rejected --since 2025-06-01 --all-plans"}},
      {"show", {"ej show 12 --diff", "ej show run 5 --output", "ej show run 17 --diff"}},
      {"search", {"ej search allreduce", "ej search \"symmetric memory\" -n 5", "ej search 'allred*'"}},
      {"why", {"ej why 12", "ej why nccl"}},
      {"bench",
       {"ej bench add decode --metric 'tok_s=kv:Output token throughput (tok/s)' -- ./bench --steps 64",
        "ej bench list"}},
      {"bench add",
       {"ej bench add decode --metric 'tok_s=kv:Output token throughput (tok/s)' -- ./bench --steps 64",
        "ej bench add transpose --param variant=naive,blocked --repeat 10 --metric "
        "'time_ms=regex:time_ms=([0-9.]+)' "
        "--unit time_ms=ms -- ./cpu-bench --variant {variant}"}},
      {"bench edit",
       {"ej bench edit decode --repeat 20", "ej bench edit decode --min-effect 2",
        "ej bench edit decode --ci   # measured by 'ej ci'"}},
      {"bench list", {"ej bench list", "ej bench list --json"}},
      {"bench show", {"ej bench show decode"}},
      {"bench test",
       {"ej bench test --metric 'verify_ms=regex:verify: ([0-9.]+) ms' out.txt",
        "./bench | ej bench test --bench decode -"}},
      {"run",
       {"ej run decode --attempt 12", "ej run transpose --param variant=blocked --repeat 5 --on gpu-box"}},
      {"run withdraw",
       {"ej run withdraw r17 --reason \"measured on the debug build\"", "ej run withdraw r17 --undo"}},
      {"runs", {"ej runs --bench decode", "ej runs --attempt 12 --json"}},
      {"wait",
       {"ej wait r5 --timeout 10   # how it ended, or how far it has come", "ej wait @k3f9qx --json"}},
      {"mcp", {"ej mcp   # started by an MCP client: claude mcp add ej -- ej mcp"}},
      {"cancel", {"ej cancel r5"}},
      {"host", {"ej host add gpu-box ssh:gpu-box.lan --root /scratch/ej", "ej host check gpu-box"}},
      {"host add",
       {"ej host add gpu-box ssh:gpu-box.lan",
        "ej host add dgx ssh:me@dgx --root /scratch/ej --env CUDA_HOME=/usr/local/cuda"}},
      {"host list", {"ej host list"}},
      {"host check", {"ej host check gpu-box"}},
      {"env", {"ej env show r5", "ej env diff r4 r5"}},
      {"env show", {"ej env show r5", "ej env show r5 --json"}},
      {"env diff", {"ej env diff r4 r5"}},
      {"env probe", {"ej env probe add pip -- pip freeze", "ej env probe list"}},
      {"env probe add", {"ej env probe add pip -- pip freeze", "ej env probe add nvcc -- nvcc --version"}},
      {"env probe list", {"ej env probe list"}},
      {"env probe remove", {"ej env probe remove pip"}},
      {"record", {"ej record 12 --bench decode --metric tok_s=92.6 --source \"colleague's H100 run\""}},
      {"import", {"ej import journal.jsonl", "ssh box ej export | ej import -"}},
      {"reindex", {"ej reindex"}},
      {"ci",
       {"ej ci                                  # against the merge base with origin/main",
        "ej ci --against origin/release-2 --max-rounds 40", "ej ci --bench decode --json"}},
      {"purge", {"read -rs V; ej purge --secret \"$V\""}},
  };
  return table;
}

CLI::App* child(CLI::App& node, const std::string& name)
{
  for (auto* sub : node.get_subcommands({})) {
    if (sub->get_name() == name) {
      return sub;
    }
  }
  return nullptr;
}

// The command a path names; nullptr when its first word is a command a partial tree was not given
// (ej builds only the command being run). Any other path that names nothing is a stale entry.
CLI::App* find_mutable(CLI::App& root, const std::string& path, TreeExtent extent)
{
  CLI::App* node = &root;
  std::string rest = path;
  bool top = true;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    const auto word = rest.substr(0, space);
    auto* next = child(*node, word);
    if (next == nullptr && top && extent == TreeExtent::partial) {
      return nullptr;
    }
    node = next != nullptr ? next : node->get_subcommand(word); // CLI11 throws OptionNotFound
    rest = space == std::string::npos ? "" : rest.substr(space + 1);
    top = false;
  }
  return node;
}

} // namespace

void add_command_examples(CLI::App& root, TreeExtent extent)
{
  for (const auto& [path, lines] : example_table()) {
    auto* command = find_mutable(root, path, extent);
    if (command != nullptr && examples(*command).empty()) {
      add_examples(*command, lines);
    }
  }
}

} // namespace ej::cli
