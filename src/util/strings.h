#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ej::util {

std::string_view trim(std::string_view text);
std::vector<std::string> split(std::string_view text, char separator);
// The same fields as split, viewing text instead of copying it (text must outlive them).
std::vector<std::string_view> split_views(std::string_view text, char separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);
// Text between double quotes, each quote in it doubled: how CSV, SQL and FTS5 quote a string.
std::string double_quoted(std::string_view text);
std::string to_lower(std::string_view text);
std::string to_upper(std::string_view text);
bool contains_ci(std::string_view haystack, std::string_view needle);
bool is_valid_utf8(std::string_view text);
// Replaces invalid UTF-8 sequences by U+FFFD so that JSON output never fails.
std::string sanitize_utf8(std::string_view text);
// Control characters made visible, so that text from a user or a program cannot drive the
// terminal (ESC sequences, BEL) or hide in a document: every C0 control except "\n", "\t" and
// the "\r" of "\r\n" (every "\r" when keep_cr), and DEL, become their Unicode control pictures (ESC -> U+241B
// "␛", BEL -> U+2407 "␇", DEL -> U+2421 "␡"); C1 controls (U+0080..U+009F) become "\u009b" etc.
std::string visible_controls(std::string_view text, bool keep_cr = false);
// The first line of a text, shortened to max_chars (on a character boundary) with "...".
std::string first_line(std::string_view text, std::size_t max_chars);
std::vector<std::string> lines(std::string_view text);

} // namespace ej::util
