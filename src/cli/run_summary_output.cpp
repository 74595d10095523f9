#include "cli/run_summary_output.h"

#include "evidence/ended_run_summary.h"

#include <fmt/format.h>

namespace ej::cli {

void print_run_summary(store::Journal& journal, int number)
{
  fmt::print("{}", evidence::ended_run_summary(journal, number));
}

} // namespace ej::cli
