#include "measure/text_source.h"

#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <string>
#include <vector>

using ej::measure::TextSource;

namespace {

std::vector<std::string> chunks_of(const TextSource& source)
{
  std::vector<std::string> chunks;
  source.for_each_chunk([&](std::string_view chunk) { chunks.emplace_back(chunk); });
  return chunks;
}

std::string big_log(std::size_t lines)
{
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    text += "step " + std::to_string(i) + ": loss 0.25 and some words to make the line longer\n";
  }
  return text;
}

} // namespace

TEST_CASE("a file is read in pieces of whole lines that together are the whole file")
{
  ej::test::TempDir dir;
  const auto text = big_log(200000) + "the last line, without a newline";
  REQUIRE(text.size() > 2 * TextSource::k_chunk_bytes);
  ej::test::write_text(dir / "log.txt", text);
  const auto source = TextSource::open(dir / "log.txt");
  REQUIRE(source);
  CHECK(source->size() == text.size());
  CHECK_FALSE(source->in_memory());
  const auto chunks = chunks_of(*source);
  REQUIRE(chunks.size() >= 3);
  std::string joined;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    CHECK(chunks[i].size() <= TextSource::k_chunk_bytes);
    if (i + 1 < chunks.size()) {
      CHECK(chunks[i].back() == '\n');
    }
    joined += chunks[i];
  }
  CHECK(joined == text);
  std::string storage;
  CHECK(source->whole(storage) == text);
  CHECK(source->tail(32) == text.substr(text.size() - 32));
}

TEST_CASE("a line longer than the longest piece is cut there, and nothing is lost")
{
  ej::test::TempDir dir;
  const std::string text = std::string(TextSource::k_max_chunk_bytes + 100, 'x') + "\nend\n";
  ej::test::write_text(dir / "long.txt", text);
  const auto chunks = chunks_of(*TextSource::open(dir / "long.txt"));
  REQUIRE(chunks.size() >= 2);
  CHECK(chunks[0].size() == TextSource::k_max_chunk_bytes);
  std::string joined;
  for (const auto& chunk : chunks) {
    joined += chunk;
  }
  CHECK(joined == text);
}

TEST_CASE("text in memory is one piece, an unavailable source says why on every read")
{
  const std::string text = "a: 1\nb: 2\n";
  const TextSource source(text);
  CHECK(source.in_memory());
  CHECK(chunks_of(source) == std::vector<std::string>{text});
  const auto owned = TextSource::of_owned("x: 3\n");
  CHECK(chunks_of(owned) == std::vector<std::string>{"x: 3\n"});

  const auto missing = TextSource::unavailable("the disk was full");
  CHECK_FALSE(missing.available());
  CHECK_THROWS_WITH(chunks_of(missing), Catch::Contains("the disk was full"));
  std::string storage;
  CHECK_THROWS_WITH(missing.whole(storage), Catch::Contains("the disk was full"));
}

TEST_CASE("opening a missing file gives nothing, a FIFO or a directory is refused at once")
{
  ej::test::TempDir dir;
  CHECK_FALSE(TextSource::open(dir / "absent.json"));
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(TextSource::open(dir / "fifo"),
                    Catch::Contains("not a regular file") && Catch::Contains("FIFO"));
  CHECK_THROWS_WITH(TextSource::open(dir.path()), Catch::Contains("a directory"));
}
