#include "core/numbering.h"

#include <catch2/catch.hpp>

using namespace ej;

TEST_CASE("numbers below the provisional range are shown as #N")
{
  CHECK(core::number_label(12) == "#12");
  CHECK_FALSE(core::is_provisional(core::k_provisional_base - 1));
}

TEST_CASE("a provisional number is the first six random characters of the id, and reads back")
{
  const std::string id = "01JD4K7Q8ZK3F9QXABCDEFGHJK";
  const int number = core::provisional_number(id);
  CHECK(core::is_provisional(number));
  CHECK(core::number_label(number) == "@k3f9qx");
  CHECK(core::parse_provisional("@k3f9qx") == number);
  CHECK(core::parse_provisional("@K3F9QX") == number);
  CHECK(core::provisional_id_part("@k3f9qx") == "K3F9QX");
  CHECK_FALSE(core::parse_provisional("@k3f9q"));   // too short
  CHECK_FALSE(core::parse_provisional("@k3f9qu"));  // 'u' is not Crockford base32
  CHECK_FALSE(core::parse_provisional("#k3f9qx"));
  CHECK(core::number_label(core::provisional_number("01JD4K7Q8Z" "ZZZZZZ" "0000000000")) == "@zzzzzz");
}
