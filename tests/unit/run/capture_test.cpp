#include "run/capture.h"

#include <catch2/catch.hpp>

using namespace ej::run;

TEST_CASE("a capture smaller than head plus tail keeps everything in order")
{
  CaptureBuffer buffer(4, 4);
  buffer.append("ab");
  buffer.append("cdef");
  buffer.append("gh");
  const Capture capture = buffer.finish();
  CHECK(capture.head == "abcd");
  CHECK(capture.tail == "efgh");
  CHECK(capture.cut_bytes == 0);
  CHECK(capture.total_bytes == 8);
  CHECK(capture.text() == "abcdefgh");
}

TEST_CASE("the tail ring keeps the last bytes across small and large appends")
{
  CaptureBuffer buffer(2, 5);
  buffer.append("0123456"); // head "01", ring "23456"
  buffer.append("78");      // ring wraps: "45678"
  buffer.append("9");       // "56789"
  Capture capture = buffer.finish();
  CHECK(capture.head == "01");
  CHECK(capture.tail == "56789");
  CHECK(capture.cut_bytes == 3);
  CHECK(capture.text() == "01\n[... 3 bytes cut ...]\n56789");

  buffer.append("abcdefghij"); // larger than the ring: only its end survives
  capture = buffer.finish();
  CHECK(capture.tail == "fghij");
  CHECK(capture.total_bytes == 20);
  CHECK(capture.cut_bytes == 13);
}

TEST_CASE("a zero-sized tail keeps only the head")
{
  CaptureBuffer buffer(3, 0);
  buffer.append("abcdef");
  const Capture capture = buffer.finish();
  CHECK(capture.head == "abc");
  CHECK(capture.tail.empty());
  CHECK(capture.cut_bytes == 3);
}
