#include "render/html_explorer.h"

#include "render/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

namespace ej::render {

namespace {

constexpr std::string_view k_statuses[] = {"adopted",      "rejected", "superseded", "blocked",
                                           "inconclusive", "running",  "proposed"};

// Sorting compares numbers when a cell holds one ("96.10", "+3.78%", "12.50 ms"), else text; a
// cell without a value ("—") goes last either way. Filters hide rows; a click on a row shows its
// attempt's evidence below the table.
constexpr std::string_view k_script = R"(<script>
(function () {
  var table = document.getElementById('ej-attempts');
  if (!table) { return; }
  var body = table.tBodies[0];
  var headers = table.tHead.rows[0].cells;
  function value(row, i) {
    var text = row.cells[i].textContent.trim();
    if (headers[i].getAttribute('data-type') !== 'number') { return text === '\u2014' ? null : text; }
    var n = parseFloat(text.replace(/[^0-9eE.+-]/g, ''));
    return isNaN(n) ? null : n;
  }
  function sortBy(i) {
    var ascending = headers[i].getAttribute('aria-sort') !== 'ascending';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, i), y = value(b, i);
      if (x === null || y === null) { return x === y ? 0 : (x === null ? 1 : -1); }
      var c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
      return ascending ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    for (var k = 0; k < headers.length; k++) { headers[k].removeAttribute('aria-sort'); }
    headers[i].setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  }
  Array.prototype.forEach.call(headers, function (header, i) {
    header.addEventListener('click', function () { sortBy(i); });
  });
  var boxes = document.querySelectorAll('#ej-explorer input[data-status]');
  var tag = document.getElementById('ej-tag');
  function filter() {
    var shown = {};
    Array.prototype.forEach.call(boxes, function (box) { shown[box.getAttribute('data-status')] = box.checked; });
    Array.prototype.forEach.call(body.rows, function (row) {
      var wanted = tag.value === '' || row.getAttribute('data-tags').indexOf(' ' + tag.value + ' ') >= 0;
      row.hidden = !(shown[row.getAttribute('data-status')] && wanted);
    });
  }
  Array.prototype.forEach.call(boxes, function (box) { box.addEventListener('change', filter); });
  tag.addEventListener('change', filter);
  Array.prototype.forEach.call(body.rows, function (row) {
    row.addEventListener('click', function () {
      var id = 'ej-evidence-' + row.getAttribute('data-number');
      Array.prototype.forEach.call(document.querySelectorAll('.ej-evidence'), function (panel) {
        panel.hidden = panel.id !== id;
      });
      Array.prototype.forEach.call(body.rows, function (other) { other.classList.toggle('ej-chosen', other === row); });
    });
  });
  var picker = document.getElementById('ej-chart');
  if (picker) {
    picker.addEventListener('change', function () {
      Array.prototype.forEach.call(document.querySelectorAll('.ej-chart'), function (chart) {
        chart.hidden = chart.getAttribute('data-chart') !== picker.value;
      });
    });
  }
})();
</script>
)";

std::string escape(std::string_view text)
{
  return escape_xml(text);
}

template <typename... Args> void add(std::string& out, fmt::format_string<Args...> format, Args&&... args)
{
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

void filters(std::string& out, const ReportData& data)
{
  std::set<std::string> statuses;
  std::set<std::string> tags;
  for (const auto& a : data.attempts) {
    statuses.insert(a.status);
    tags.insert(a.tags.begin(), a.tags.end());
  }
  out += "<p class=\"ej-filters\">Status:";
  for (const auto status : k_statuses) {
    if (statuses.count(std::string(status)) > 0) {
      add(out, " <label><input type=\"checkbox\" data-status=\"{0}\" checked> {0}</label>", status);
    }
  }
  out += " &#8226; Tag: <select id=\"ej-tag\"><option value=\"\">any</option>";
  for (const auto& tag : tags) {
    add(out, "<option value=\"{0}\">{0}</option>", escape(tag));
  }
  out += "</select></p>\n";
}

void attempts_table(std::string& out, const ReportData& data)
{
  out += "<table id=\"ej-attempts\">\n<thead><tr><th data-type=\"number\">#</th><th "
         "data-type=\"text\">attempt</th>"
         "<th data-type=\"text\">status</th>";
  for (const auto& column : data.columns) {
    add(out, "<th data-type=\"number\">{}</th>", escape(column));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& a : data.attempts) {
    std::string tags = " ";
    for (const auto& tag : a.tags) {
      tags += tag + " ";
    }
    add(out, "<tr data-number=\"{}\" data-status=\"{}\" data-tags=\"{}\"><td>{}</td><td>{}</td><td>{}</td>",
        a.number, escape(a.status), escape(tags), a.number, escape(a.title), escape(a.status));
    for (const auto& cell : a.cells) {
      add(out, "<td>{}</td>", escape(cell));
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
}

void evidence_panels(std::string& out, const ReportData& data)
{
  for (const auto& a : data.attempts) {
    add(out, "<div class=\"ej-evidence\" id=\"ej-evidence-{}\" hidden>\n<h3>#{} {}</h3>\n", a.number,
        a.number, escape(a.title));
    if (a.evidence.empty()) {
      out += "<p>Nothing judged: no run of this attempt was compared with a baseline.</p>\n";
    } else {
      out += "<table><thead><tr>";
      for (const auto& column : data.evidence_columns) {
        add(out, "<th>{}</th>", escape(column));
      }
      out += "</tr></thead><tbody>\n";
      for (const auto& row : a.evidence) {
        out += "<tr>";
        for (const auto& cell : row) {
          add(out, "<td>{}</td>", escape(cell));
        }
        out += "</tr>\n";
      }
      out += "</tbody></table>\n";
    }
    if (!a.note.empty()) {
      add(out, "<p>{}</p>\n", escape(a.note));
    }
    out += "</div>\n";
  }
}

void charts(std::string& out, const ReportData& data)
{
  if (data.charts.empty()) {
    return;
  }
  out += "<p>Chart: <select id=\"ej-chart\">";
  for (std::size_t i = 0; i < data.charts.size(); ++i) {
    add(out, "<option value=\"{}\">{}</option>", i, escape(data.charts[i].name));
  }
  out += "</select></p>\n";
  for (std::size_t i = 0; i < data.charts.size(); ++i) {
    add(out, "<div class=\"ej-chart\" data-chart=\"{}\"{}>\n{}</div>\n", i, i == 0 ? "" : " hidden",
        data.charts[i].svg);
  }
}

} // namespace

std::string explorer_html(const ReportData& data)
{
  if (data.attempts.empty()) {
    return "";
  }
  std::string out = "<section id=\"ej-explorer\">\n<h2>Explore the attempts</h2>\n"
                    "<p>Click a column to sort by it, a row to see its evidence below.</p>\n";
  filters(out, data);
  attempts_table(out, data);
  evidence_panels(out, data);
  charts(out, data);
  out += "</section>\n";
  out += k_script;
  return out;
}

} // namespace ej::render
