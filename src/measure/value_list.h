#pragma once

#include "measure/extract.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ej::measure {

// The values of one metric in one repeat as the journal keeps them, compactly: 8 bytes a value,
// plus a label (key, unit, kind) per run of consecutive values that share it, so that a
// benchmark printing a value per iteration costs ej 8 bytes a line, not a string or two.
// Past `limit` values, the others are counted, not kept (dropped()).
class ValueList {
public:
  struct Label {
    std::string key;
    std::string unit;
    bool aggregate = false;
    bool skipped = false;
    bool own_unit = false;
    bool operator==(const Label&) const = default;
  };
  // A stretch of values that share a label (two runs in a row may share one: runs() says nothing of
  // how the values were printed, only what each is).
  struct Run {
    const Label& label;
    std::span<const double> values;
  };

  explicit ValueList(std::size_t limit = k_unlimited) : m_limit(limit) {}
  // A list moved from is empty (its count goes with its values), as a vector moved from is.
  ValueList(ValueList&& other) noexcept;
  ValueList& operator=(ValueList&& other) noexcept;
  ValueList(const ValueList&) = delete;
  ValueList& operator=(const ValueList&) = delete;
  ~ValueList() = default;
  // Everything of values but notes and relative deviations (which the journal does not keep).
  static ValueList of(const std::vector<ExtractedValue>& values);

  void add(std::string_view key, double value, std::string_view unit);
  void add(const ExtractedValue& value);

  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0 && m_dropped == 0; }
  // Values offered past the limit: neither kept nor in size().
  std::uint64_t dropped() const { return m_dropped; }
  std::size_t limit() const { return m_limit; }

  // The runs in output order.
  std::vector<Run> runs() const;
  std::vector<ExtractedValue> expand() const;

  // Labels in order of first use, and every value rewritten: settle_units for lists.
  std::vector<Label>& labels() { return m_labels; }
  const std::vector<Label>& labels() const { return m_labels; }
  // Calls fn(label index, value&) for every value in order.
  template <typename Fn> void for_each(Fn fn)
  {
    std::size_t block = 0;
    std::size_t offset = 0;
    std::size_t position = 0;
    for (const auto& run : m_runs) {
      for (; position < run.end; ++position) {
        if (offset == m_blocks[block].size) {
          ++block;
          offset = 0;
        }
        fn(run.label, m_blocks[block].values[offset++]);
      }
    }
  }

  static constexpr std::size_t k_unlimited = static_cast<std::size_t>(-1);

private:
  std::uint32_t label_index(std::string_view key, std::string_view unit, bool aggregate, bool skipped,
                            bool own_unit);
  void push(std::uint32_t label, double value);

  std::size_t m_limit;
  // The values in blocks that never move, each twice the last up to k_largest_block: a list of
  // millions grows without copying itself (a vector held its old and new storage at once while it
  // grew, up to 18 bytes a value), and a list of a few values takes a small block.
  struct Block {
    std::unique_ptr<double[]> values;
    std::size_t size = 0;
    std::size_t capacity = 0;
  };
  static constexpr std::size_t k_first_block = 64;
  static constexpr std::size_t k_largest_block = 64 * 1024; // 512 KiB
  std::vector<Block> m_blocks;
  std::size_t m_size = 0;
  std::vector<Label> m_labels;
  struct Stretch {
    std::uint32_t label;
    std::size_t end; // one past its last value
  };
  std::vector<Stretch> m_runs;
  std::uint64_t m_dropped = 0;
  static constexpr std::size_t k_scanned_labels = 16;
  std::unordered_map<std::string, std::uint32_t> m_index; // built once labels outnumber k_scanned_labels
};

// How many values of one metric ej keeps from one repeat: 10 million (80 MB), or EJ_MAX_SAMPLES.
// Throws ej::UsageError when that variable is not a positive whole number.
std::size_t max_values_per_repeat();

// settle_units (extract.h) for a list: every value in one unit, converted, labels relabelled.
void settle_units(const MetricSpec& spec, ValueList& values);

} // namespace ej::measure
