#include "render/svg_parts.h"

#include "render/number_format.h"
#include "render/svg_chart.h"

#include <algorithm>
#include <cmath>

namespace ej::render::svg {

double text_width(std::string_view text)
{
  double chars = 0;
  for (const char c : text) {
    chars += (static_cast<unsigned char>(c) & 0xC0) == 0x80 ? 0 : 1;
  }
  return chars * k_char_width;
}

std::string px(double value)
{
  auto text = fmt::format("{:.1f}", value);
  return text == "-0.0" ? "0.0" : text;
}

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

void open_chart(std::string& out, std::string_view title, std::string_view subtitle)
{
  add(out,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\">\n",
      k_width, k_height);
  add(out, "<title>{}</title>\n", escape_xml(title));
  add(out, "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", k_width, k_height);
  add(out, "<text x=\"{}\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", px(k_left),
      escape_xml(title));
  add(out, "<text x=\"{}\" y=\"36\" font-size=\"11\" fill=\"#555555\">{}</text>\n", px(k_left),
      escape_xml(subtitle));
  add(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbbbbb\"/>\n",
      px(k_left), px(k_top), px(k_plot_width), px(k_plot_height));
}

std::size_t label_step(double widest, double spacing)
{
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((widest + 8) / spacing)));
}

std::string at_text(const std::string& at)
{
  return at.empty() ? "" : " at " + at;
}

std::string_view better_text(bool higher_is_better)
{
  return higher_is_better ? "higher is better" : "lower is better";
}

void close_empty(std::string& out)
{
  add(out,
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" fill=\"#777777\">no results "
      "yet</text>\n",
      px(k_left + k_plot_width / 2), px(k_top + k_plot_height / 2));
  out += "</svg>\n";
}

void y_axis(std::string& out, const Scale& scale, std::string_view unit)
{
  if (!unit.empty()) {
    add(out,
        "<text x=\"18\" y=\"{0}\" transform=\"rotate(-90 18 {0})\" font-size=\"11\" text-anchor=\"middle\" "
        "fill=\"#555555\">{1}</text>\n",
        px(k_top + k_plot_height / 2), escape_xml(unit));
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
}

void reference_lines(std::string& out, const Scale& scale, std::vector<ReferenceLine> lines)
{
  for (auto& line : lines) {
    line.label_y = scale.y(line.value) + 4;
  }
  std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.label_y < b.label_y; });
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].label_y - lines[i - 1].label_y < k_line_height) {
      const double middle = (lines[i - 1].label_y + lines[i].label_y) / 2;
      lines[i - 1].label_y = middle - k_line_height / 2;
      lines[i].label_y = middle + k_line_height / 2;
    }
  }
  for (const auto& line : lines) {
    if (!line.drawn) {
      const auto y = px(scale.y(line.value));
      add(out,
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" "
          "stroke-dasharray=\"6 4\"/>\n",
          px(k_left), y, px(k_plot_right), y, line.colour);
    }
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{} {}</text>\n", px(k_plot_right + 6),
        px(line.label_y), line.colour, line.name, escape_xml(format_number(line.value, 4)));
  }
}

double legend_line(std::string& out, double x, double y, std::string_view name, std::string_view colour,
                   bool dashed)
{
  add(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", px(x),
      px(y - 4), px(x + 18), px(y - 4), colour, dashed ? "1.5" : "2",
      dashed ? " stroke-dasharray=\"6 4\"" : "");
  add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", px(x + 22), px(y), name);
  return x + 22 + text_width(name) + 10;
}

} // namespace ej::render::svg
