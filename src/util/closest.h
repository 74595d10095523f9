#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ej::util {

// Edit distance with adjacent transpositions counted as one edit ("hlep" is one from "help").
std::size_t edit_distance(std::string_view a, std::string_view b);

// The names a mistyped word was probably meant to be, best first: those within a small edit
// distance (about a third of the word, at least one), then those the word is a prefix of. Empty
// when nothing is close, so that a suggestion is never a wild guess.
std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& names);

// "did you mean 'log'?" or "did you mean 'compare' or 'completion'?" (the three closest names);
// empty when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& names);

} // namespace ej::util
