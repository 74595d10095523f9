#include "render/frozen_data.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>

namespace ej::render {

namespace {

// What follows a key (or, in a list, starts an item).
enum Tag : char { Text = 'S', True = 'T', False = 'F', List = 'L', Object = 'O', End = 'E' };

// What a frozen item's one text starts with: no text in ej's data does (user text shows its
// control characters as pictures, util::visible_controls). A frozen item is a list of that one
// text, not an object: telling it from the items a renderer pushes costs a type test, where an
// object cost a hash lookup per item (a twentieth of a large render).
constexpr std::string_view k_frozen_marker = "\x01"
                                             "frozen\x01";

void write_size(std::string& out, std::size_t size)
{
  do {
    const auto low = static_cast<unsigned char>(size & 0x7f);
    size >>= 7;
    out.push_back(static_cast<char>(size != 0 ? (low | 0x80) : low));
  } while (size != 0);
}

class Thawer {
public:
  explicit Thawer(std::string_view bytes) : m_bytes(bytes) {}

  TemplateData object()
  {
    auto out = template_object();
    while (peek() != End) {
      const auto tag = next();
      auto key = std::string(text());
      put(out, key, value(static_cast<Tag>(tag)));
    }
    next();
    return out;
  }

  bool at_end() const { return m_at == m_bytes.size(); }

private:
  TemplateData value(Tag tag)
  {
    switch (tag) {
    case Text:
      return template_text(std::string(text()));
    case True:
      return TemplateData{true};
    case False:
      return TemplateData{false};
    case List:
      return list();
    case Object:
      return object();
    case End:
      break;
    }
    throw Error("damaged document data ({}); this is a bug in ej", static_cast<int>(tag));
  }

  TemplateData list()
  {
    std::uint32_t count = 0;
    std::memcpy(&count, take(sizeof count).data(), sizeof count);
    auto out = template_list(std::min<std::size_t>(count, m_bytes.size() - m_at)); // an item is 1+ bytes
    while (peek() != End) {
      append(out, value(static_cast<Tag>(next())));
    }
    next();
    return out;
  }

  std::string_view text()
  {
    std::size_t size = 0;
    for (int shift = 0;; shift += 7) {
      if (shift > 56) {
        throw Error("damaged document data (a length too long); this is a bug in ej");
      }
      const auto byte = static_cast<unsigned char>(next());
      size |= static_cast<std::size_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        break;
      }
    }
    return take(size);
  }

  std::string_view take(std::size_t size)
  {
    if (size > m_bytes.size() - m_at) {
      throw Error("damaged document data (truncated); this is a bug in ej");
    }
    const auto out = m_bytes.substr(m_at, size);
    m_at += size;
    return out;
  }
  char peek() const { return m_at < m_bytes.size() ? m_bytes[m_at] : static_cast<char>(End); }
  char next() { return take(1).front(); }

  std::string_view m_bytes;
  std::size_t m_at = 0;
};

} // namespace

FrozenWriter::FrozenWriter() : m_bytes(k_frozen_marker) {}

void FrozenWriter::in_list() const
{
  if (m_open_lists.empty()) {
    throw Error("document data: a list item outside a list; this is a bug in ej");
  }
}

void FrozenWriter::bytes(std::string_view text)
{
  write_size(m_bytes, text.size());
  m_bytes.append(text);
}

void FrozenWriter::put(std::string_view key, std::string_view text)
{
  m_bytes.push_back(Text);
  bytes(key);
  bytes(text);
}

void FrozenWriter::put(std::string_view key, bool flag)
{
  m_bytes.push_back(flag ? True : False);
  bytes(key);
}

void FrozenWriter::begin_list(std::string_view key)
{
  m_bytes.push_back(List);
  bytes(key);
  m_open_lists.push_back({m_bytes.size(), 0});
  m_bytes.append(sizeof(std::uint32_t), '\0');
}

void FrozenWriter::item(std::string_view text)
{
  in_list();
  m_bytes.push_back(Text);
  bytes(text);
  ++m_open_lists.back().items;
}

void FrozenWriter::begin_object()
{
  in_list();
  m_bytes.push_back(Object);
  ++m_open_lists.back().items;
}

void FrozenWriter::end_object()
{
  m_bytes.push_back(End);
}

void FrozenWriter::end_list()
{
  in_list();
  m_bytes.push_back(End);
  // The count, so that thawing reserves the list once (a growing list of TemplateData moves
  // every item it holds).
  const auto& list = m_open_lists.back();
  std::memcpy(m_bytes.data() + list.count_at, &list.items, sizeof list.items);
  m_open_lists.pop_back();
}

TemplateData FrozenWriter::take_frozen()
{
  m_bytes.push_back(End);
  auto out = template_list(1);
  append(out, template_text(std::move(m_bytes)));
  m_bytes.assign(k_frozen_marker);
  return out;
}

const std::string* frozen_bytes(const TemplateData& data)
{
  if (!data.is_list()) {
    return nullptr;
  }
  const auto& items = data.list_value();
  if (items.size() != 1 || !items.front().is_string()) {
    return nullptr;
  }
  const auto& text = items.front().string_value();
  return text.starts_with(k_frozen_marker) ? &text : nullptr;
}

TemplateData thaw(std::string_view frozen)
{
  if (!frozen.starts_with(k_frozen_marker)) {
    throw Error("damaged document data (not frozen); this is a bug in ej");
  }
  frozen.remove_prefix(k_frozen_marker.size());
  Thawer thawer(frozen);
  auto out = thawer.object();
  if (!thawer.at_end()) {
    throw Error("damaged document data (trailing bytes); this is a bug in ej");
  }
  return out;
}

} // namespace ej::render
