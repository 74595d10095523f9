#pragma once

#include "core/numbering.h"
#include "store/database.h"

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// How `ej log` and `ej runs` list attempts and runs: the filters that are set, newest first.
namespace ej::store {

// The conditions of a listing that are set, and the values they bind, in their order.
class SqlFilter {
public:
  void add(std::string_view condition, std::string value);
  void add(std::string_view condition, std::int64_t value);
  // " AND c1 AND c2 ...", to follow a WHERE clause.
  const std::string& conditions() const { return m_conditions; }
  // Binds the values from index 1 on; returns the next free index.
  int bind(Statement& statement) const;

private:
  std::string m_conditions;
  std::vector<std::variant<std::string, std::int64_t>> m_values;
};

// Rows newest first: those made here and not numbered yet come first, in the order of their ids
// (which grow with time, where their provisional numbers are random), then the numbered; at most
// `limit` of them (0: all). `select` ends in a WHERE clause ("... WHERE 1 = 1"), `table` names the
// table ("a." for an alias, or ""), and `read` appends the rows of a statement to a vector.
template <typename Row, typename Read>
std::vector<Row> list_newest_first(Database& db, std::string_view select, std::string_view table,
                                   const SqlFilter& filter, int limit, Read read)
{
  std::vector<Row> rows;
  for (const bool provisional : {true, false}) {
    // "+id": sorting the few provisional rows, not walking the whole id index to skip a sort.
    auto sql = std::string(select) + filter.conditions() +
               (provisional ? fmt::format(" AND {0}number >= ? ORDER BY +{0}id DESC", table)
                            : fmt::format(" AND {0}number < ? ORDER BY {0}number DESC", table));
    if (limit > 0) {
      sql += fmt::format(" LIMIT {}", limit - static_cast<int>(rows.size()));
    }
    auto statement = db.prepare(sql);
    statement.bind(filter.bind(statement), core::k_provisional_base);
    read(statement, rows);
    if (limit > 0 && static_cast<int>(rows.size()) >= limit) {
      break;
    }
  }
  return rows;
}

} // namespace ej::store
