#pragma once

#include "core/records.h"
#include "evidence/reader.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The one-line verdict of an attempt that listings print (ej log, ej search): the line a
// render kept (store/verdict_cache.h) while the journal still holds what it was judged from, else
// judged now. Either way the same text as judge_attempt's against the baseline then.
namespace ej::evidence {

// One line (or none) per attempt, in order. maker: this build's identity (cli::build_identity); a
// line kept by another build is judged again, and with an empty maker every line is.
std::vector<std::optional<std::string>>
verdict_lines(Reader& reader, const std::vector<core::Attempt>& attempts, std::string_view maker);

} // namespace ej::evidence
