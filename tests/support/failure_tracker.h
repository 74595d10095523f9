#pragma once

namespace ej::test {
// Set by the Catch2 listener in catch_main.cpp when an assertion of the running test fails.
extern bool current_test_failed;
} // namespace ej::test
