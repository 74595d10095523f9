#pragma once

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the SVG charts share: their frame, scales, reference lines and number formats.
namespace ej::render::svg {

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

constexpr std::string_view k_baseline_colour = "#455a64";
constexpr std::string_view k_target_colour = "#d84315";
constexpr std::string_view k_candidate_colour = "#2e7d32";

template <typename... Args> void add(std::string& out, fmt::format_string<Args...> format, Args&&... args)
{
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// A value a chart can draw: present and finite.
inline bool finite(const std::optional<double>& value)
{
  return value && std::isfinite(*value);
}

// Appends the values a chart can draw, for the scale that holds them all.
inline void add_finite(std::vector<double>& values, std::initializer_list<std::optional<double>> candidates)
{
  for (const auto& value : candidates) {
    if (finite(value)) {
      values.push_back(*value);
    }
  }
}

// A label's width on the page, in pixels (UTF-8 continuation bytes do not count).
double text_width(std::string_view text);
// Every how many points along the x axis a label is written, so that labels up to `widest` pixels
// wide, at `spacing` pixels apart, do not overlap.
std::size_t label_step(double widest, double spacing);
// Pixel coordinates and other drawing numbers: one decimal, "-0.0" avoided.
std::string px(double value);

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
Scale make_scale(double low, double high);

// The SVG element, title, background, heading and subtitle, and the plot's frame.
void open_chart(std::string& out, std::string_view title, std::string_view subtitle);
// What every chart's subtitle says of its metric: " at AXIS=V" (empty for no combination), and
// "higher is better" or "lower is better".
std::string at_text(const std::string& at);
std::string_view better_text(bool higher_is_better);
// "no results yet" in the frame, and the end of the SVG.
void close_empty(std::string& out);
// The unit along the y axis (the one place it is said) and the horizontal ticks.
void y_axis(std::string& out, const Scale& scale, std::string_view unit);

struct ReferenceLine {
  double value = 0; // where its label goes: its last value
  std::string_view name;
  std::string_view colour;
  double label_y = 0;
  bool drawn = false; // drawn already (a step line): only its label is written
};
// Dashed lines across the plot (unless drawn already), each labelled outside it on the right, where
// no point or other line can be under the label; labels closer than a line apart are moved apart.
void reference_lines(std::string& out, const Scale& scale, std::vector<ReferenceLine> lines);
// The legend entry of a line: a short dashed stroke and its name, at x; returns the x after it.
double legend_line(std::string& out, double x, double y, std::string_view name, std::string_view colour,
                   bool dashed);

} // namespace ej::render::svg
