#pragma once

// The journal the listing benchmarks read (journal_bench, mcp_bench): 20 plans and N attempts, each
// with three status changes and six notes (about 10 events an attempt), written through the store
// as ej writes them, 500 attempts a transaction; the same every time (a fixed seed).
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

namespace ej::perf {

inline const char* const k_words[] = {"allreduce",  "fusion",  "NCCL_ALGO=Tree", "symmetric", "memory",
                                      "cuda-graph", "padding", "verify",         "PCIe",      "Blackwell",
                                      "FlashInfer", "expert",  "parallelism",    "kernel",    "latency",
                                      "throughput", "batch",   "SM120",          "toolkit",   "regression"};

inline std::string sentence(std::mt19937& random, int words)
{
  std::string out;
  for (int i = 0; i < words; ++i) {
    out += (i ? " " : "") + std::string(k_words[random() % std::size(k_words)]);
  }
  return out;
}

// Writes the journal through the store (the same event path ej uses), 500 attempts a transaction.
inline std::int64_t generate_journal(const std::filesystem::path& ej_dir, int attempts)
{
  auto journal = store::Journal::create(ej_dir);
  std::mt19937 random(42);
  const char* statuses[] = {"running", "adopted", "rejected", "blocked", "inconclusive", "superseded"};
  journal.write([&](store::Writer& writer) {
    for (int p = 0; p < 20; ++p) {
      writer.append("plan.created", {{"slug", "plan-" + std::to_string(p)},
                                     {"title", "Plan " + std::to_string(p)},
                                     {"goal", sentence(random, 8)},
                                     {"target", "verify_ms < 15"},
                                     {"doc", "journal/plan-" + std::to_string(p) + ".md"}});
    }
  });
  for (int first = 1; first <= attempts; first += 500) {
    journal.write([&](store::Writer& writer) {
      for (int number = first; number < first + 500 && number <= attempts; ++number) {
        writer.append("attempt.created", {{"attempt", number},
                                          {"plan", "plan-" + std::to_string(number % 20)},
                                          {"title", sentence(random, 4) + " #" + std::to_string(number)},
                                          {"hypothesis", sentence(random, 12)},
                                          {"command", "./bench --variant " + std::to_string(number)},
                                          {"tags", {k_words[number % 5]}},
                                          {"links", nlohmann::json::array()},
                                          {"git", nlohmann::json::object()}});
        for (int s = 0; s < 3; ++s) {
          writer.append("attempt.status", {{"attempt", number},
                                           {"status", statuses[random() % std::size(statuses)]},
                                           {"reason", sentence(random, 10)},
                                           {"git", nlohmann::json::object()}});
        }
        for (int n = 0; n < 6; ++n) {
          writer.append("attempt.note", {{"attempt", number}, {"text", sentence(random, 15)}});
        }
      }
    });
  }
  return journal.db().query_integer("SELECT count(*) FROM events");
}

} // namespace ej::perf
