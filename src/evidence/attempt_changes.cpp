#include "evidence/attempt_changes.h"

#include "core/references.h"
#include "evidence/lookup.h"
#include "measuring/code_state.h"
#include "store/queries.h"
#include "util/error.h"

#include <algorithm>

namespace ej::evidence {

std::vector<std::string> checked_tags(const std::vector<std::string>& tags)
{
  std::vector<std::string> out;
  for (const auto& tag : tags) {
    auto text = core::checked_text(tag, "tag", false);
    if (text.find_first_of(" \t\n") != std::string::npos) {
      throw UsageError("the tag '{}' contains white space; tags are single words like 'nccl' or 'cuda-13'",
                       tag);
    }
    out.push_back(std::move(text));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int create_attempt(const measuring::Workspace& workspace, store::Journal& journal, const NewAttempt& attempt)
{
  const auto title = core::checked_text(attempt.title, "title", false);
  const auto hypothesis = core::checked_text(attempt.hypothesis, "hypothesis");
  const auto command = core::checked_text(attempt.command, "command");
  const auto tags = checked_tags(attempt.tags);
  std::vector<std::pair<std::string, int>> links; // kind, attempt number
  const auto add_links = [&](const std::vector<std::string>& ids, const char* kind) {
    for (const auto& id : ids) {
      links.emplace_back(kind, core::parse_attempt_number(id));
    }
  };
  add_links(attempt.supersedes, "supersedes");
  add_links(attempt.retry_of, "retry-of");
  add_links(attempt.blocked_by, "blocked-by");

  int number = 0;
  const auto code_state = measuring::read_code_state(workspace, attempt.keep_untracked); // outside the lock
  const bool from_remote = measuring::numbers_from_remote(workspace);
  const auto plan = choose_plan(journal, attempt.plan);
  journal.write([&](store::Writer& writer) {
    store::events::AttemptCreated created;
    for (const auto& [kind, to] : links) {
      created.links.push_back({kind, store::events::Ref::to(require_attempt(journal, to).id)});
    }
    created.number = from_remote ? 0 : store::next_attempt_number(journal.db());
    created.plan = plan;
    created.title = title;
    created.hypothesis = hypothesis;
    created.command = command;
    created.tags = tags;
    created.git = measuring::store_code_state(writer, code_state);
    number = store::number_of_attempt(journal.db(), writer.append(created).id);
  });
  return number;
}

core::Status change_status(const measuring::Workspace& workspace, store::Journal& journal, int number,
                           core::Status status, const std::string& reason)
{
  const auto checked_reason = core::checked_text(reason, "reason");
  if (core::reason_required(status) && checked_reason.empty()) {
    throw UsageError("a {} attempt needs a reason: add --reason \"why\"", core::to_string(status));
  }
  core::Status previous = status;
  const auto code_state = measuring::read_code_state(workspace); // outside the write lock
  journal.write([&](store::Writer& writer) {
    const auto attempt = require_attempt(journal, number);
    previous = attempt.status;
    writer.append(store::events::AttemptStatus{store::events::Ref::to(attempt.id),
                                               std::string(core::to_string(status)), checked_reason,
                                               measuring::store_code_state(writer, code_state)});
  });
  return previous;
}

void add_note(store::Journal& journal, int number, const std::string& text)
{
  const auto checked = core::checked_text(text, "note", false);
  journal.write([&](store::Writer& writer) {
    const auto attempt = require_attempt(journal, number);
    writer.append(store::events::AttemptNote{store::events::Ref::to(attempt.id), checked});
  });
}

} // namespace ej::evidence
