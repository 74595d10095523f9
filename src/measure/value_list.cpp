#include "measure/value_list.h"

#include "util/error.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <utility>

namespace ej::measure {

namespace {

constexpr std::size_t k_default_max_values = 10'000'000;

ValueList::Label label_of(const ExtractedValue& value)
{
  return {value.key, value.unit, value.aggregate, value.skipped, value.own_unit};
}

ExtractedValue value_of(const ValueList::Label& label, double value)
{
  ExtractedValue out;
  out.key = label.key;
  out.value = value;
  out.unit = label.unit;
  out.aggregate = label.aggregate;
  out.skipped = label.skipped;
  out.own_unit = label.own_unit;
  return out;
}

// The key of a label in ValueList's index.
std::string index_name(std::string_view key, std::string_view unit, bool aggregate, bool skipped,
                       bool own_unit)
{
  std::string name;
  name.reserve(key.size() + unit.size() + 3);
  name.append(key).append(1, '\0').append(unit).append(1, '\0');
  name.push_back(static_cast<char>('0' + (aggregate ? 1 : 0) + (skipped ? 2 : 0) + (own_unit ? 4 : 0)));
  return name;
}

} // namespace

ValueList ValueList::of(const std::vector<ExtractedValue>& values)
{
  ValueList list;
  for (const auto& value : values) {
    list.add(value);
  }
  return list;
}

std::uint32_t ValueList::label_index(std::string_view key, std::string_view unit, bool aggregate,
                                     bool skipped, bool own_unit)
{
  const auto same = [&](const Label& label) {
    return label.key == key && label.unit == unit && label.aggregate == aggregate &&
           label.skipped == skipped && label.own_unit == own_unit;
  };
  if (!m_runs.empty() && same(m_labels[m_runs.back().label])) {
    return m_runs.back().label; // the common case: as the value before
  }
  // A few labels (a table's rows) are looked up in turn; many (a key per line) through an index.
  if (m_labels.size() <= k_scanned_labels) {
    for (std::size_t i = 0; i < m_labels.size(); ++i) {
      if (same(m_labels[i])) {
        return static_cast<std::uint32_t>(i);
      }
    }
  }
  auto name = index_name(key, unit, aggregate, skipped, own_unit);
  if (m_labels.size() > k_scanned_labels) {
    if (m_index.empty()) {
      for (std::size_t i = 0; i < m_labels.size(); ++i) {
        const auto& label = m_labels[i];
        m_index.emplace(index_name(label.key, label.unit, label.aggregate, label.skipped, label.own_unit),
                        static_cast<std::uint32_t>(i));
      }
    }
    if (const auto it = m_index.find(name); it != m_index.end()) {
      return it->second;
    }
  }
  m_labels.push_back({std::string(key), std::string(unit), aggregate, skipped, own_unit});
  const auto index = static_cast<std::uint32_t>(m_labels.size() - 1);
  if (!m_index.empty()) {
    m_index.emplace(std::move(name), index);
  }
  return index;
}

ValueList::ValueList(ValueList&& other) noexcept
    : m_limit(other.m_limit), m_blocks(std::exchange(other.m_blocks, {})), m_size(std::exchange(other.m_size, 0)),
      m_labels(std::exchange(other.m_labels, {})), m_runs(std::exchange(other.m_runs, {})),
      m_dropped(std::exchange(other.m_dropped, 0)), m_index(std::exchange(other.m_index, {}))
{
}

ValueList& ValueList::operator=(ValueList&& other) noexcept
{
  if (this != &other) {
    m_limit = other.m_limit;
    m_blocks = std::exchange(other.m_blocks, {});
    m_size = std::exchange(other.m_size, 0);
    m_labels = std::exchange(other.m_labels, {});
    m_runs = std::exchange(other.m_runs, {});
    m_dropped = std::exchange(other.m_dropped, 0);
    m_index = std::exchange(other.m_index, {});
  }
  return *this;
}

void ValueList::push(std::uint32_t label, double value)
{
  if (m_blocks.empty() || m_blocks.back().size == m_blocks.back().capacity) {
    const auto capacity =
        m_blocks.empty() ? k_first_block : std::min(m_blocks.back().capacity * 2, k_largest_block);
    m_blocks.push_back({std::make_unique_for_overwrite<double[]>(capacity), 0, capacity});
  }
  auto& block = m_blocks.back();
  block.values[block.size++] = value;
  ++m_size;
  if (!m_runs.empty() && m_runs.back().label == label) {
    m_runs.back().end = m_size;
  } else {
    m_runs.push_back({label, m_size});
  }
}

void ValueList::add(std::string_view key, double value, std::string_view unit)
{
  if (m_size >= m_limit) {
    ++m_dropped;
    return;
  }
  push(label_index(key, unit, false, false, false), value);
}

void ValueList::add(const ExtractedValue& value)
{
  if (m_size >= m_limit) {
    ++m_dropped;
    return;
  }
  push(label_index(value.key, value.unit, value.aggregate, value.skipped, value.own_unit), value.value);
}

std::vector<ValueList::Run> ValueList::runs() const
{
  // A stretch that crosses from one block to the next is two runs of the same label.
  std::vector<Run> out;
  out.reserve(m_runs.size() + m_blocks.size());
  std::size_t block = 0;
  std::size_t offset = 0;
  std::size_t position = 0;
  for (const auto& run : m_runs) {
    while (position < run.end) {
      if (offset == m_blocks[block].size) {
        ++block;
        offset = 0;
      }
      const auto take = std::min(run.end - position, m_blocks[block].size - offset);
      out.push_back({m_labels[run.label], std::span<const double>(m_blocks[block].values.get() + offset, take)});
      offset += take;
      position += take;
    }
  }
  return out;
}

std::vector<ExtractedValue> ValueList::expand() const
{
  std::vector<ExtractedValue> out;
  out.reserve(m_size);
  for (const auto& run : runs()) {
    for (const double value : run.values) {
      out.push_back(value_of(run.label, value));
    }
  }
  return out;
}

std::size_t max_values_per_repeat()
{
  const char* text = std::getenv("EJ_MAX_SAMPLES");
  if (text == nullptr || *text == '\0') {
    return k_default_max_values;
  }
  const std::string_view value(text);
  std::size_t limit = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), limit);
  if (error != std::errc() || end != value.data() + value.size() || limit == 0) {
    throw UsageError("EJ_MAX_SAMPLES='{}' is not a number of values: write a positive whole number, e.g. "
                     "EJ_MAX_SAMPLES=50000000",
                     value);
  }
  return limit;
}

void settle_units(const MetricSpec& spec, ValueList& values)
{
  auto& labels = values.labels();
  if (labels.empty()) {
    return;
  }
  // settle_units picks the unit from the values in output order and converts each from the unit it
  // came in: the labels in the order of their first value lead it to the same choice, and its
  // conversions are affine (scales), so a 0 and a 1 of each label settled give all its values.
  std::vector<ExtractedValue> zeros;
  std::vector<ExtractedValue> ones;
  zeros.reserve(labels.size());
  ones.reserve(labels.size());
  for (const auto& label : labels) {
    zeros.push_back(value_of(label, 0.0));
    ones.push_back(value_of(label, 1.0));
  }
  measure::settle_units(spec, zeros);
  measure::settle_units(spec, ones);
  values.for_each([&](std::uint32_t label, double& value) {
    const double offset = zeros[label].value;
    value = offset + (ones[label].value - offset) * value;
  });
  for (std::size_t i = 0; i < labels.size(); ++i) {
    labels[i] = label_of(ones[i]);
  }
}

} // namespace ej::measure
