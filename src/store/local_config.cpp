#include "store/local_config.h"

#include "store/event_exchange.h"

namespace ej::store {

namespace {

constexpr const char* k_current_plan = "current_plan";

} // namespace

std::optional<std::string> current_plan(Database& db)
{
  return meta_value(db, k_current_plan);
}

void set_current_plan(Database& db, const std::optional<std::string>& slug)
{
  if (slug) {
    set_meta_value(db, k_current_plan, *slug);
  } else {
    db.prepare("DELETE FROM meta WHERE key = ?").bind(1, std::string(k_current_plan)).run();
  }
}

} // namespace ej::store
