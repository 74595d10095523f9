#include "render/svg_chart.h"

#include "render/number_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ej::render {

namespace {

constexpr double k_width = 720;
constexpr double k_height = 360;
constexpr double k_left = 72;   // tick labels, and the unit along the y axis
constexpr double k_right = 104; // the baseline's and target's labels, beside their lines
constexpr double k_top = 48;
constexpr double k_bottom = 60; // x labels, then the legend
constexpr double k_plot_width = k_width - k_left - k_right;
constexpr double k_plot_height = k_height - k_top - k_bottom;
constexpr double k_plot_right = k_left + k_plot_width;
constexpr double k_plot_bottom = k_top + k_plot_height;
constexpr double k_char_width = 6.5; // of 11px sans-serif text, generously: labels must not overlap
constexpr double k_line_height = 13; // of 11px text

// A label's width on the page, in pixels (UTF-8 continuation bytes do not count).
double text_width(std::string_view text)
{
  double chars = 0;
  for (const char c : text) {
    chars += (static_cast<unsigned char>(c) & 0xC0) == 0x80 ? 0 : 1;
  }
  return chars * k_char_width;
}

std::string_view colour_of(const std::optional<core::Status>& status)
{
  if (!status) {
    return "#1565c0";
  }
  switch (*status) {
  case core::Status::Adopted:
    return "#2e7d32";
  case core::Status::Rejected:
    return "#c62828";
  case core::Status::Blocked:
    return "#ef6c00";
  case core::Status::Inconclusive:
    return "#757575";
  case core::Status::Superseded:
    return "#9e9e9e";
  case core::Status::Running:
    return "#6a1b9a";
  case core::Status::Proposed:
    return "#78909c";
  }
  return "#1565c0";
}

template <typename... Args> void add(std::string& out, fmt::format_string<Args...> format, Args&&... args)
{
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// Pixel coordinates and other drawing numbers: one decimal, "-0.0" avoided.
std::string px(double value)
{
  auto text = fmt::format("{:.1f}", value);
  return text == "-0.0" ? "0.0" : text;
}

struct Scale {
  double low = 0;
  double high = 1;
  double step = 0.2;
  int decimals = 1;

  double y(double value) const
  {
    return k_top + k_plot_height - (value - low) / (high - low) * k_plot_height;
  }
};

// A "nice" step (1, 2 or 5 times a power of ten) giving about five ticks over the range.
Scale make_scale(double low, double high)
{
  if (high - low <= std::abs(high) * 1e-12) {
    const double pad = std::max(std::abs(high) * 0.1, 1.0);
    low -= pad;
    high += pad;
  }
  const double pad = (high - low) * 0.05;
  low -= pad;
  high += pad;
  const double raw_step = (high - low) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  double step = magnitude * 10;
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (magnitude * factor >= raw_step) {
      step = magnitude * factor;
      break;
    }
  }
  Scale scale;
  scale.step = step;
  scale.low = std::floor(low / step) * step;
  scale.high = std::ceil(high / step) * step;
  scale.decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step))));
  return scale;
}

std::string unit_suffix(const ChartData& chart)
{
  return chart.unit.empty() ? "" : " " + chart.unit;
}

struct ReferenceLine {
  double value = 0;
  std::string_view name;
  std::string_view colour;
  double label_y = 0; // the label's baseline, moved apart from the other label's when they are close
};

constexpr std::string_view k_baseline_colour = "#455a64";
constexpr std::string_view k_target_colour = "#d84315";

// The baseline and target: dashed lines across the plot, each labelled outside it on the right,
// where no point or other line can be under the label.
void reference_lines(std::string& out, const Scale& scale, std::vector<ReferenceLine> lines)
{
  for (auto& line : lines) {
    line.label_y = scale.y(line.value) + 4;
  }
  std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.label_y < b.label_y; });
  if (lines.size() == 2 && lines[1].label_y - lines[0].label_y < k_line_height) {
    const double middle = (lines[0].label_y + lines[1].label_y) / 2;
    lines[0].label_y = middle - k_line_height / 2;
    lines[1].label_y = middle + k_line_height / 2;
  }
  for (const auto& line : lines) {
    const auto y = px(scale.y(line.value));
    add(out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" "
        "stroke-dasharray=\"6 4\"/>\n",
        px(k_left), y, px(k_plot_right), y, line.colour);
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{} {}</text>\n", px(k_plot_right + 6),
        px(line.label_y), line.colour, line.name, escape_xml(format_number(line.value, 4)));
  }
}

std::string_view legend_name(const std::optional<core::Status>& status)
{
  return status ? core::to_string(*status) : std::string_view("run");
}

// One entry per status colour drawn, in a fixed order, then the reference lines drawn.
void legend(std::string& out, const ChartData& chart, const std::vector<ReferenceLine>& lines)
{
  using core::Status;
  const std::optional<Status> order[] = {Status::Adopted,  Status::Rejected,     Status::Superseded,
                                         Status::Blocked,  Status::Inconclusive, Status::Running,
                                         Status::Proposed, std::nullopt};
  std::vector<std::optional<Status>> shown;
  for (const auto& status : order) {
    const auto drawn = std::any_of(chart.points.begin(), chart.points.end(), [&](const ChartPoint& p) {
      return p.status == status && std::isfinite(p.median);
    });
    if (drawn) {
      shown.push_back(status);
    }
  }
  constexpr double k_gap = 10;
  double width = 0;
  for (const auto& status : shown) {
    width += 12 + text_width(legend_name(status)) + k_gap;
  }
  for (const auto& line : lines) {
    width += 22 + text_width(line.name) + k_gap;
  }
  const double y = k_plot_bottom + 42;
  double x = k_left + width <= k_width ? k_left : 8; // all statuses and lines: from the left edge
  for (const auto& status : shown) {
    add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"4.0\" fill=\"{}\"/>\n", px(x + 4), px(y - 4),
        colour_of(status));
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", px(x + 12), px(y), legend_name(status));
    x += 12 + text_width(legend_name(status)) + k_gap;
  }
  for (const auto& line : lines) {
    add(out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" "
        "stroke-dasharray=\"6 4\"/>\n",
        px(x), px(y - 4), px(x + 18), px(y - 4), line.colour);
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", px(x + 22), px(y), line.name);
    x += 22 + text_width(line.name) + k_gap;
  }
}

} // namespace

std::string escape_xml(std::string_view text)
{
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters other than tab and newline are not allowed in XML 1.0 at all.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
        out += ' ';
      } else {
        out += c;
      }
    }
  }
  return out;
}

std::string render_chart_svg(const ChartData& chart)
{
  std::string out;
  add(out,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\">\n",
      k_width, k_height);
  add(out, "<title>{}</title>\n", escape_xml(chart.title));
  add(out, "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", k_width, k_height);
  add(out, "<text x=\"{}\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", px(k_left),
      escape_xml(chart.title));
  add(out, "<text x=\"{}\" y=\"36\" font-size=\"11\" fill=\"#555555\">median {} per attempt, {}</text>\n",
      px(k_left), escape_xml(chart.metric), chart.higher_is_better ? "higher is better" : "lower is better");

  std::vector<double> values;
  for (const auto& point : chart.points) {
    for (const auto& value : {std::optional<double>(point.median), point.low, point.high}) {
      if (value && std::isfinite(*value)) {
        values.push_back(*value);
      }
    }
  }
  for (const auto& value : {chart.baseline, chart.target}) {
    if (value && std::isfinite(*value)) {
      values.push_back(*value);
    }
  }
  add(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbbbbb\"/>\n",
      px(k_left), px(k_top), px(k_plot_width), px(k_plot_height));
  if (chart.points.empty() || values.empty()) {
    add(out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" fill=\"#777777\">no results "
        "yet</text>\n",
        px(k_left + k_plot_width / 2), px(k_top + k_plot_height / 2));
    out += "</svg>\n";
    return out;
  }

  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  const Scale scale = make_scale(*min_it, *max_it);
  if (!chart.unit.empty()) { // the one place the unit is said
    add(out,
        "<text x=\"18\" y=\"{0}\" transform=\"rotate(-90 18 {0})\" font-size=\"11\" text-anchor=\"middle\" "
        "fill=\"#555555\">{1}</text>\n",
        px(k_top + k_plot_height / 2), escape_xml(chart.unit));
  }
  for (double tick = scale.low; tick <= scale.high + scale.step / 2; tick += scale.step) {
    const auto y = px(scale.y(tick));
    add(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eeeeee\"/>\n", px(k_left), y,
        px(k_left + k_plot_width), y);
    auto label = fmt::format("{:.{}f}", tick, scale.decimals);
    label =
        label.find_first_not_of("-0.") == std::string::npos ? label.substr(label[0] == '-' ? 1 : 0) : label;
    add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{}</text>\n", px(k_left - 6),
        px(scale.y(tick) + 4), label);
  }

  const auto n = chart.points.size();
  const double spacing = k_plot_width / static_cast<double>(n);
  const auto x_of = [&](std::size_t i) { return k_left + (static_cast<double>(i) + 0.5) * spacing; };
  double widest = 0;
  for (const auto& point : chart.points) {
    widest = std::max(widest, text_width(point.label));
  }
  const std::size_t label_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((widest + 8) / spacing)));
  const double radius = n > 200 ? 1.5 : n > 50 ? 2.5 : 4;

  for (std::size_t i = 0; i < n; ++i) {
    const auto& point = chart.points[i];
    const auto colour = colour_of(point.status);
    const auto x = px(x_of(i));
    if (point.low && point.high && std::isfinite(*point.low) && std::isfinite(*point.high) &&
        *point.low != *point.high) {
      add(out,
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\" "
          "opacity=\"0.6\"/>\n",
          x, px(scale.y(*point.low)), px(scale.y(*point.high)), colour);
    }
    if (std::isfinite(point.median)) {
      add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"><title>{}</title></circle>\n", x,
          px(scale.y(point.median)), px(radius), colour,
          escape_xml(point.label + ": " + format_number(point.median, 4) + unit_suffix(chart) +
                     (point.status ? fmt::format(" ({})", core::to_string(*point.status)) : "")));
    }
    if (i % label_every == 0) {
      add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x,
          px(k_plot_bottom + 16), escape_xml(point.label));
    }
  }
  std::vector<ReferenceLine> lines;
  if (chart.baseline && std::isfinite(*chart.baseline)) {
    lines.push_back({*chart.baseline, "baseline", k_baseline_colour});
  }
  if (chart.target && std::isfinite(*chart.target)) {
    lines.push_back({*chart.target, "target", k_target_colour});
  }
  reference_lines(out, scale, lines);
  legend(out, chart, lines);
  out += "</svg>\n";
  return out;
}

} // namespace ej::render
