#include "support/failure_tracker.h"

namespace ej::test {
bool current_test_failed = false;
}
