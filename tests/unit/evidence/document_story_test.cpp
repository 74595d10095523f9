#include "evidence/document_story.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

core::AttemptHistory attempt(int number, const std::string& title, core::Status status,
                             std::vector<core::Link> links = {})
{
  core::AttemptHistory history;
  history.attempt.number = number;
  history.attempt.title = title;
  history.attempt.status = status;
  history.links_out = std::move(links);
  return history;
}

} // namespace

TEST_CASE("The decisions' chains say what an adopted blocker unblocked and how each retry ended")
{
  using core::Status;
  evidence::document::Story story;
  story.add(attempt(3, "CUDA 12.8 -> 13.0 upgrade", Status::Adopted));
  story.add(attempt(4, "FlashInfer allreduce fusion", Status::Blocked, {{"blocked-by", 4, 3}}));
  story.add(attempt(7, "Torch symmetric memory", Status::Blocked, {{"blocked-by", 7, 3}}));
  story.add(attempt(10, "FlashInfer attention backend", Status::Adopted, {{"supersedes", 10, 1}}));
  story.add(attempt(1, "No speculation", Status::Superseded));
  story.add(attempt(11, "FlashInfer allreduce fusion on CUDA 13", Status::Adopted, {{"retry-of", 11, 4}}));
  story.add(attempt(12, "Torch symmetric memory on CUDA 13", Status::Rejected, {{"retry-of", 12, 7}}));
  const auto chains = story.chains();
  REQUIRE(chains.size() == 2);
  CHECK(chains[0] ==
        "#3 CUDA 12.8 -> 13.0 upgrade unblocked #4 (retried as #11, adopted) and #7 (retried as #12, "
        "rejected).");
  CHECK(chains[1] == "#10 FlashInfer attention backend superseded #1 No speculation.");
}

TEST_CASE("A blocker not adopted yet still blocks, and a blocked attempt not retried says so")
{
  using core::Status;
  evidence::document::Story story;
  story.add(attempt(3, "CUDA upgrade", Status::Proposed));
  story.add(attempt(4, "Fusion", Status::Blocked, {{"blocked-by", 4, 3}}));
  story.add(attempt(5, "Other", Status::Blocked, {{"blocked-by", 5, 6}}));
  story.add(attempt(6, "Driver", Status::Adopted));
  const auto chains = story.chains();
  REQUIRE(chains.size() == 2);
  CHECK(chains[0] == "#3 CUDA upgrade (proposed) blocks #4.");
  CHECK(chains[1] == "#6 Driver unblocked #5 (not tried again yet).");
}
