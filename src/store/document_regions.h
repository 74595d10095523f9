#pragma once

#include "store/database.h"

#include <map>
#include <string>

namespace ej::store {

// The hash of every region ej last wrote into a document (relative path): how `ej plan render`
// tells a hand edit from its own text.
using RegionHashes = std::map<std::string, std::string>;

RegionHashes load_document_regions(Database& db, const std::string& doc);
// Replaces the document's hashes; the caller holds a WriteTransaction.
void save_document_regions(Database& db, const std::string& doc, const RegionHashes& hashes);

} // namespace ej::store
