#include "store/newest_first.h"

namespace ej::store {

void SqlFilter::add(std::string_view condition, std::string value)
{
  m_conditions += fmt::format(" AND {}", condition);
  m_values.emplace_back(std::move(value));
}

void SqlFilter::add(std::string_view condition, std::int64_t value)
{
  m_conditions += fmt::format(" AND {}", condition);
  m_values.emplace_back(value);
}

int SqlFilter::bind(Statement& statement) const
{
  int index = 1;
  for (const auto& value : m_values) {
    std::visit([&](const auto& v) { statement.bind(index++, v); }, value);
  }
  return index;
}

} // namespace ej::store
