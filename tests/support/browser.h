#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ej::test {

// Debian's chromium or chromium-browser on PATH (scripts/install-deps.sh --test), else empty.
std::filesystem::path find_chromium();

// Lays an HTML page out in headless Chromium, `width` pixels wide, and says what does not fit:
// each table wider than the page (it would scroll sideways), and each cell whose text takes more
// than one line, except in the columns whose header is in `wrapping_columns` (titles, reasons) and in
// the header row. Of the charts (SVG) `checked_charts` selects (a CSS selector; "": none), each
// shown that runs past the page's width, each of its texts outside it, and each two of its texts
// that overlap. `dir` holds the page and the browser's profile.
std::vector<std::string> layout_problems(const std::filesystem::path& chromium, const std::string& html,
                                         int width, const std::vector<std::string>& wrapping_columns,
                                         const std::filesystem::path& dir,
                                         const std::string& checked_charts = "");

// Loads a page in headless Chromium, runs `script` in it once the page's own scripts have run (as
// a user would act: clicks, choices), and returns the lines the script wrote with report(TEXT).
// `dir` holds the page and the browser's profile.
std::vector<std::string> run_in_page(const std::filesystem::path& chromium, const std::string& html,
                                     const std::string& script, const std::filesystem::path& dir);

} // namespace ej::test
