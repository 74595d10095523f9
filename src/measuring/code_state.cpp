#include "measuring/code_state.h"

#include "util/fs.h"
#include "util/hash.h"

#include <algorithm>

namespace ej::measuring {

core::GitContext store_code_state(store::Writer& writer, const git::CodeState& state)
{
  auto context = state.context;
  if (context.dirty && !state.diff_text.empty()) {
    context.diff_blob = writer.put_blob(state.diff_text);
  }
  for (auto& file : context.large_untracked) {
    if (std::find(state.keep_as_blobs.begin(), state.keep_as_blobs.end(), file.path) ==
        state.keep_as_blobs.end()) {
      continue;
    }
    // Read here, one at a time: a kept file may be hundreds of megabytes.
    const auto content = util::read_file(state.work_tree / file.path);
    if (!content) {
      continue; // gone since the work tree was read: described, not stored
    }
    file.size = content->size();
    file.sha256 = util::sha256_hex(*content);
    file.content_blob = writer.put_blob(*content);
  }
  return context;
}

} // namespace ej::measuring
