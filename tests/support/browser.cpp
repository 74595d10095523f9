#include "support/browser.h"

#include "support/command.h"
#include "support/temp_dir.h"
#include "util/strings.h"

#include <catch2/catch.hpp>

#include <unistd.h>

namespace ej::test {

namespace {

// Runs in the page once it is laid out: one problem a line, inside <pre id="ej-layout">.
const char* const k_measure = R"(<script>
(() => {
  const wrapping = new Set(WRAPPING);
  const problems = [];
  for (const table of document.querySelectorAll('table')) {
    const names = [...table.rows[0].cells].map(c => c.textContent.trim());
    if (table.scrollWidth > table.clientWidth + 1) {
      problems.push(`table [${names.join(' | ')}] is ${table.scrollWidth}px wide in ${table.clientWidth}px`);
    }
    for (const row of [...table.rows].slice(1)) { // a header may take two lines
      [...row.cells].forEach((cell, i) => {
        if (wrapping.has(names[i])) return;
        const range = document.createRange();
        range.selectNodeContents(cell);
        // What a figure or an outcome adds in parentheses, a verdict's design as in +3.78% (sequential),
        // may take a line of its own; the figure before it may not wrap.
        const text = cell.firstChild;
        const aside = text && text.nodeType === Node.TEXT_NODE ? text.data.indexOf(' (') : -1;
        if (aside > 0) range.setEnd(text, aside);
        const tops = [...range.getClientRects()].map(r => r.top).sort((a, b) => a - b);
        const lines = tops.filter((top, k) => k === 0 || top - tops[k - 1] > 8).length;
        if (lines > 1) problems.push(`"${cell.textContent}" in column "${names[i]}" takes ${lines} lines`);
      });
    }
  }
  // Every chart shown fits the page, and its texts stay inside it, clear of each other.
  const page = document.documentElement.clientWidth;
  for (const svg of CHARTS ? document.querySelectorAll(CHARTS) : []) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) continue; // hidden (a chart not picked)
    const name = svg.querySelector('title') ? svg.querySelector('title').textContent : 'chart';
    if (box.right > page + 1) problems.push(`chart "${name}" ends at ${box.right}px in a ${page}px page`);
    const texts = [...svg.querySelectorAll('text')].map(t => ({text: t.textContent, r: t.getBoundingClientRect()}))
                                                  .filter(t => t.r.width > 0);
    for (const t of texts) {
      if (t.r.left < box.left - 1 || t.r.right > box.right + 1 || t.r.top < box.top - 1 || t.r.bottom > box.bottom + 1)
        problems.push(`"${t.text}" leaves chart "${name}"`);
    }
    texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
      if (a.r.left < b.r.right - 1 && b.r.left < a.r.right - 1 && a.r.top < b.r.bottom - 1 && b.r.top < a.r.bottom - 1)
        problems.push(`"${a.text}" overlaps "${b.text}" in chart "${name}"`);
    }));
  }
  const out = document.createElement('pre');
  out.id = 'ej-layout';
  out.textContent = 'BEGIN\n' + problems.join('\n') + '\nEND';
  document.body.appendChild(out);
})();
</script>
)";

std::string unescape_html(std::string text)
{
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                 {"&gt;", ">"},
                                 {"&quot;", "\""},
                                 {"&#39;", "'"},
                                 {"&amp;", "&"}}) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

} // namespace

std::filesystem::path find_chromium()
{
  const char* path = std::getenv("PATH");
  for (const auto& dir : util::split(path != nullptr ? path : "", ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) {
        return candidate;
      }
    }
  }
  return {};
}

std::vector<std::string> layout_problems(const std::filesystem::path& chromium, const std::string& html,
                                         int width, const std::vector<std::string>& wrapping_columns,
                                         const std::filesystem::path& dir, const std::string& checked_charts)
{
  std::string names = "[";
  for (const auto& column : wrapping_columns) {
    names += (names.size() > 1 ? "," : "") + std::string("\"") + column + "\"";
  }
  names += "]";
  std::string script = k_measure;
  script.replace(script.find("WRAPPING"), 8, names);
  script.replace(script.find("CHARTS"), 6, "'" + checked_charts + "'");
  script.replace(script.find("CHARTS"), 6, "'" + checked_charts + "'");
  auto page = html;
  const auto end = page.rfind("</body>");
  REQUIRE(end != std::string::npos);
  page.insert(end, script);
  const auto file = dir / "layout.html";
  write_text(file, page);

  CommandOptions options;
  options.env["HOME"] = dir.string();
  const auto result = run_command(
      {chromium.string(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
       "--hide-scrollbars", "--user-data-dir=" + (dir / "chromium-profile").string(),
       "--window-size=" + std::to_string(width) + ",900", "--dump-dom", "file://" + file.string()},
      options);
  INFO("chromium: " << result.err);
  REQUIRE(result.exit_code == 0);
  const auto begin = result.out.find("BEGIN\n");
  const auto finish = result.out.find("\nEND", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(finish != std::string::npos);
  std::vector<std::string> problems;
  for (const auto& line : util::split(result.out.substr(begin + 6, finish - begin - 6), '\n')) {
    if (!line.empty()) {
      problems.push_back(unescape_html(line));
    }
  }
  return problems;
}

std::vector<std::string> run_in_page(const std::filesystem::path& chromium, const std::string& html,
                                     const std::string& script, const std::filesystem::path& dir)
{
  // The page's scripts run as it is parsed; this one is the last element of the body, so it runs
  // after them, and what it reports is in the DOM that --dump-dom prints.
  const std::string wrapped =
      "<script>\n(() => {\n  const lines = [];\n  const report = (text) => lines.push(String(text));\n"
      "  try {\n" +
      script +
      "\n  } catch (error) { report('error: ' + error); }\n"
      "  const out = document.createElement('pre');\n  out.id = 'ej-run-in-page';\n"
      "  out.textContent = 'BEGIN\\n' + lines.join('\\n') + '\\nEND';\n"
      "  document.body.appendChild(out);\n})();\n</script>\n";
  auto page = html;
  const auto end = page.rfind("</body>");
  REQUIRE(end != std::string::npos);
  page.insert(end, wrapped);
  const auto file = dir / "page.html";
  write_text(file, page);
  CommandOptions options;
  options.env["HOME"] = dir.string();
  const auto result = run_command({chromium.string(), "--headless", "--no-sandbox", "--disable-gpu",
                                   "--no-first-run", "--user-data-dir=" + (dir / "chromium-profile").string(),
                                   "--window-size=1000,900", "--dump-dom", "file://" + file.string()},
                                  options);
  INFO("chromium: " << result.err);
  REQUIRE(result.exit_code == 0);
  const auto begin = result.out.find("BEGIN\n");
  const auto finish = result.out.find("\nEND", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(finish != std::string::npos);
  std::vector<std::string> lines;
  for (const auto& line : util::split(result.out.substr(begin + 6, finish - begin - 6), '\n')) {
    lines.push_back(unescape_html(line));
  }
  return lines;
}

} // namespace ej::test
