#pragma once

#include "render/template_data.h"
#include "util/work_ahead.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

// Thaws the frozen items of a list (frozen_data.h) on a thread of its own, in order, ahead of the
// renderer: when a section names a list of frozen items, the thread starts on it; the renderer
// takes each item as the section enters it and gives it back when it leaves. Thawing and freeing
// them were two thirds of rendering a large plan; on a second core they cost the renderer
// little. An item that is not ready in that order (a template that visits it twice, or reaches
// it some other way) is thawed by the renderer itself, as without this.
namespace ej::render {

class ThawAhead {
public:
  // nullptr when no thread can be had (the renderer thaws everything then).
  static std::unique_ptr<ThawAhead> start();
  ~ThawAhead(); // stops the thread and waits for it
  ThawAhead(const ThawAhead&) = delete;
  ThawAhead& operator=(const ThawAhead&) = delete;

  // Thaws this list's items from its first on, instead of the list it thawed so far.
  void ahead(const kainjow::mustache::list& items);
  // The item thawed (waiting for it if the thread is at it); nullptr when the thread has not
  // started on it (it goes on after it, so that both cores thaw), when it is not an item of the
  // list ahead, when it was taken before, or when thawing it failed: the caller thaws it itself
  // then (and meets the error).
  std::unique_ptr<TemplateData> take(const TemplateData* item);
  // Gives a taken item back, done with, to be freed on the thread, which allocated it.
  void dispose(std::unique_ptr<TemplateData> thawed);

private:
  ThawAhead();
  void thaw_all();

  // Under m_ahead's mutex.
  const kainjow::mustache::list* m_list = nullptr; // the list ahead
  std::uint64_t m_generation = 0;                  // how many lists it was given
  std::size_t m_next = 0;                          // the first of its items not started
  std::optional<std::size_t> m_thawing;            // the one the thread is at, of this list
  std::deque<std::pair<std::size_t, std::unique_ptr<TemplateData>>> m_ready; // by index, ascending
  bool m_failed = false;                 // an item of this list did not thaw
  util::WorkAhead<TemplateData> m_ahead; // last: its thread stops before anything above goes
};

} // namespace ej::render
