#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::render {

// A generated region of a document: the lines between
//   <!-- ej:begin NAME -->
//   <!-- ej:end NAME hash=HASH -->
// Each marker is a whole line starting at column 0 (trailing spaces and "\r" allowed); NAME is
// letters, digits, '_', '-', '.' or ':'. HASH (region_hash) is the hash of the content ej wrote
// there: kept in the document, any clone tells ej's own text from a person's edit. End markers
// without it (written before ej kept it there) are read too. Markers inside code blocks (fenced or
// indented, as CommonMark sees them) are text, not markers, so a document can show the syntax.
struct Region {
  std::string name;
  std::string content;           // bytes between the marker lines, ending with '\n' unless empty
  std::size_t begin_line = 0;    // 1-based line of the begin marker
  std::size_t end_line = 0;      // 1-based line of the end marker
  std::size_t content_begin = 0; // byte offsets of content in the document
  std::size_t content_end = 0;   // also where the end marker begins
  std::size_t end_marker_end = 0;  // just past "-->" of the end marker
  std::optional<std::string> hash; // the end marker's hash, when it has one
};

// The hash an end marker keeps: 16 hex digits of the sha256 of the content, line endings counted
// as "\n" (a checkout with CRLF endings is not an edit).
std::string region_hash(std::string_view content);

// The regions of a document in order. Throws ej::Error ("NAME, line N: ...") for a region never
// ended, a region begun inside another, an end without a begin, a name used twice, or a line that
// starts like a marker ("<!-- ej:") but is not one. `source` names the document in messages.
std::vector<Region> parse_regions(std::string_view document, std::string_view source = "document");

struct MergeResult {
  std::string document;
  // sha256 (util/hash.h) of the content of every region ej owns after this merge; store them
  // and pass them back as stored_hashes next time, to detect hand edits.
  std::map<std::string, std::string> hashes;
  std::vector<std::string> warnings; // for the user, in document order
};

// Merges a freshly rendered document into the one on disk:
// - no existing document: the rendered one, whole;
// - otherwise only region contents change; every byte outside regions is kept as is (the
//   rendered text outside regions is ignored);
// - a region of the document that the template no longer produces is left alone (warning; its
//   stored hash is carried over);
// - a region the template produces that the document lacks is appended at the end (warning);
//   an author places a new region by adding an empty begin/end pair where it belongs;
// - a region whose content differs from its hash was edited by hand: ej::Error naming every such
//   region, unless force (then overwritten, with a warning). The hash is the end marker's, else
//   the stored one (a document an older ej wrote); a region with neither counts as edited unless
//   it is blank or already equal to the new content;
// - every region ej writes gets its hash in its end marker (a region left alone keeps its marker).
// Malformed markers in either text: ej::Error, nothing merged. Same inputs, same bytes.
MergeResult merge_document(std::optional<std::string_view> existing, std::string_view rendered,
                           const std::map<std::string, std::string>& stored_hashes, bool force,
                           std::string_view source = "document");

// True when rendering would not change the document (for `--check`): the merged text, ignoring
// hand-edit protection, equals the existing text.
bool document_up_to_date(std::string_view existing, std::string_view rendered);

} // namespace ej::render
