#include "store/document_regions.h"

namespace ej::store {

RegionHashes load_document_regions(Database& db, const std::string& doc)
{
  RegionHashes hashes;
  auto select = db.prepare("SELECT region, hash FROM document_regions WHERE doc = ?");
  select.bind(1, doc);
  while (select.step()) {
    hashes.emplace(select.text(0), select.text(1));
  }
  return hashes;
}

void save_document_regions(Database& db, const std::string& doc, const RegionHashes& hashes)
{
  db.prepare("DELETE FROM document_regions WHERE doc = ?").bind(1, doc).run();
  auto insert = db.prepare("INSERT INTO document_regions(doc, region, hash) VALUES (?, ?, ?)");
  for (const auto& [region, hash] : hashes) {
    insert.reset();
    insert.bind_all(doc, region, hash).run();
  }
}

} // namespace ej::store
