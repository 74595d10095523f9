#include "evidence/lookup.h"

#include "core/numbering.h"
#include "store/local_config.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/closest.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

// No WHAT has that name: "did you mean 'x'?" among the names, else where to see them.
Error none_named(std::string_view what, const std::string& given, const std::vector<std::string>& names,
                 std::string_view listing)
{
  const auto suggestion = util::did_you_mean(given, names);
  return Error("no {} named '{}'; {}", what, util::visible_controls(given),
               suggestion.empty() ? fmt::format("see '{}'", listing) : suggestion);
}

} // namespace

core::Plan require_plan(store::Journal& journal, const std::string& slug)
{
  if (auto plan = store::find_plan(journal.db(), slug)) {
    for (const auto& problem : plan->unread) {
      fmt::print(stderr, "ej: warning: {}\n", problem);
    }
    return *plan;
  }
  std::vector<std::string> slugs;
  for (const auto& plan : store::list_plans(journal.db())) {
    slugs.push_back(plan.slug);
  }
  throw none_named("plan", slug, slugs, "ej plan list");
}

core::BenchRevision require_benchmark(store::Journal& journal, const std::string& name)
{
  if (auto bench = store::find_benchmark(journal.db(), name)) {
    return *bench;
  }
  std::vector<std::string> names;
  for (const auto& bench : store::list_benchmarks(journal.db())) {
    names.push_back(bench.name);
  }
  throw none_named("benchmark", name, names, "ej bench list");
}

core::Attempt require_attempt(store::Journal& journal, int number)
{
  if (auto attempt = store::find_attempt(journal.db(), number)) {
    return *attempt;
  }
  throw Error("there is no attempt {}; see 'ej log' for the attempts", core::number_label(number));
}

void require_tag(store::Journal& journal, const std::string& tag)
{
  const auto tags = store::list_tags(journal.db());
  if (std::find(tags.begin(), tags.end(), tag) != tags.end()) {
    return;
  }
  if (tags.empty()) {
    throw Error("no attempt is tagged '{}'; no attempt has a tag yet (ej try ... --tag NAME)",
                util::visible_controls(tag));
  }
  auto suggestion = util::did_you_mean(tag, tags);
  if (suggestion.empty()) {
    constexpr std::size_t k_shown = 10;
    const std::vector<std::string> shown(tags.begin(), tags.begin() + std::min(tags.size(), k_shown));
    suggestion =
        fmt::format("the tags are: {}{}", util::join(shown, ", "), tags.size() > k_shown ? ", ..." : "");
  }
  throw Error("no attempt is tagged '{}'; {}", util::visible_controls(tag), suggestion);
}

core::Status parse_status_argument(const std::string& text)
{
  if (const auto status = core::parse_status(text)) {
    return *status;
  }
  std::vector<std::string> names;
  for (const auto status : core::all_statuses()) {
    names.emplace_back(core::to_string(status));
  }
  const auto suggestion = util::did_you_mean(text, names);
  throw UsageError("'{}' is not a status; {}use one of: {}", util::visible_controls(text),
                   suggestion.empty() ? "" : suggestion + " ", core::status_names());
}

namespace {

std::vector<std::string> plan_slugs(store::Journal& journal)
{
  std::vector<std::string> slugs;
  for (const auto& plan : store::list_plans(journal.db())) {
    slugs.push_back(plan.slug);
  }
  return slugs;
}

void say_plan(const std::string& slug, std::string_view why)
{
  fmt::print(stderr, "ej: plan {} ({})\n", slug, why);
}

} // namespace

std::optional<std::string> chosen_plan(store::Journal& journal)
{
  auto slug = store::current_plan(journal.db());
  if (slug && !store::find_plan(journal.db(), *slug)) {
    throw Error("the current plan '{}' is not in the journal; choose another with 'ej plan use SLUG' or "
                "clear it with 'ej plan use --clear'",
                util::visible_controls(*slug));
  }
  return slug;
}

std::string choose_plan(store::Journal& journal, const std::string& given)
{
  if (!given.empty()) {
    return require_plan(journal, given).slug;
  }
  if (const auto current = chosen_plan(journal)) {
    say_plan(*current, "the current plan; change it with 'ej plan use SLUG'");
    return *current;
  }
  const auto slugs = plan_slugs(journal);
  if (slugs.size() == 1) {
    say_plan(slugs.front(), "the only plan");
    return slugs.front();
  }
  if (slugs.empty()) {
    throw Error("there are no plans yet; create one with: ej plan new SLUG --title \"...\"");
  }
  throw UsageError(
      "which plan? the journal has {} ({}): give --plan SLUG, or choose one for every command with "
      "'ej plan use SLUG'",
      slugs.size(), util::join(slugs, ", "));
}

std::optional<std::string> plan_filter(store::Journal& journal, const std::string& given)
{
  if (!given.empty()) {
    return require_plan(journal, given).slug;
  }
  if (auto current = chosen_plan(journal)) {
    say_plan(*current, "the current plan; --all-plans for every plan");
    return current;
  }
  return std::nullopt;
}

} // namespace ej::evidence
