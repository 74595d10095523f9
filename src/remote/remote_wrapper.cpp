#include "remote/remote_wrapper.h"

#include "util/hash.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace ej::remote {

const std::string& wrapper_script()
{
  // POSIX sh only (dash, busybox): nothing but the shell, date and kill is needed on the host.
  static const std::string script =
      R"sh(# ej: runs one process of a benchmark run on this host; ej uploaded it.
# usage: sh ej-wrapper.sh NONCE GUARD CWD CHECK WORD...
#        sh ej-wrapper.sh --leftovers GUARD   (stops what holds the run's marker, prints how many)
pause() { sleep 0.1 2>/dev/null || sleep 1; }
# The processes that hold EJ_GUARD=GUARD in their environment: all the run started, setsid or not.
guarded() {
  grep -l -s -F "EJ_GUARD=$guard" /proc/[0-9]*/environ 2>/dev/null | sed -n 's,^/proc/\([0-9]*\)/environ$,\1,p'
}
# Stops them, TERM then KILL after 2 s, and prints how many there were.
sweep() {
  found=0
  for p in $(guarded); do kill -TERM "$p" 2>/dev/null && found=$((found + 1)); done
  tries=0
  while [ "$found" -gt 0 ] && [ "$tries" -lt 20 ] && [ -n "$(guarded)" ]; do pause; tries=$((tries + 1)); done
  for p in $(guarded); do kill -KILL "$p" 2>/dev/null; done
  echo "$found"
}
# Stops the benchmark's process group, TERM then KILL after 2 s.
stop_group() {
  kill -TERM -"$bench" 2>/dev/null
  tries=0
  while [ "$tries" -lt 20 ] && kill -0 -"$bench" 2>/dev/null; do pause; tries=$((tries + 1)); done
  kill -KILL -"$bench" 2>/dev/null
}
if [ "$1" = --leftovers ]; then
  guard=$2
  sweep
  exit 0
fi
nonce=$1 guard=$2 cwd=$3 check=$4
shift 4
# The trailer: status, wall ns, whether the benchmark's group outlived it, then `times` (in this
# shell: a subshell's would not count the benchmark), the shell's own times, then its children's.
finish() {
  printf '\n%s %s %s %s\n' "$nonce" "$1" "$2" "$3" >&2
  times >&2
  exit 0
}
# The ssh channel is stdin: kept on descriptor 3 for the watcher, /dev/null for the benchmark.
exec 3<&0 </dev/null
if ! cd "$cwd" 2>/dev/null; then
  echo "ej: the working directory $cwd does not exist on $(hostname)" >&2
  finish 126 0 0
fi
if [ -n "$check" ] && ! command -v "$check" >/dev/null 2>&1; then
  echo "ej: '$check' is not found on $(hostname) (in $cwd, PATH=$PATH)" >&2
  finish 127 0 0
fi
# The benchmark in a process group of its own where setsid exists, so that what it leaves in its
# group is stopped after it, and with the marker, which every process it starts inherits.
start=$(date +%s%N)
if command -v setsid >/dev/null 2>&1; then
  EJ_GUARD=$guard setsid "$@" 3<&- &
else
  EJ_GUARD=$guard "$@" 3<&- &
fi
bench=$!
# When the channel closes (connection lost, ej gone, Ctrl-C), end the benchmark's group, whatever
# holds the marker, and this group (sshd made it for this command): nothing is left on the host.
(
  trap '' TERM
  while read -r _; do :; done
  kill -TERM 0
  stop_group
  sweep >/dev/null
  kill -KILL 0
) <&3 &
watcher=$!
exec 3<&-
wait "$bench"
status=$?
end=$(date +%s%N)
kill -KILL "$watcher" 2>/dev/null
left=0
if kill -0 -"$bench" 2>/dev/null; then
  left=1
  stop_group
fi
case "$start$end" in
  *[!0-9]*) wall=- ;;
  *) wall=$((end - start)) ;;
esac
finish "$status" "$wall" "$left"
)sh";
  return script;
}

std::string wrapper_file_name()
{
  return "ej-wrapper-" + util::sha256_hex(wrapper_script()).substr(0, 12) + ".sh";
}

std::string wrapper_command(const std::string& wrapper_path, const std::string& nonce,
                            const std::string& guard, const std::string& cwd, const std::string& check,
                            const std::vector<std::string>& words)
{
  return "sh " + util::shell_join({wrapper_path, nonce, guard, cwd, check}) + " " + util::shell_join(words);
}

std::string leftovers_command(const std::string& wrapper_path, const std::string& guard)
{
  return "sh " + util::shell_join({wrapper_path, "--leftovers", guard});
}

namespace {

// "1m2.500s" -> 62.5
double shell_time(std::string_view text)
{
  const auto m = text.find('m');
  if (m == std::string_view::npos) {
    return 0;
  }
  const double minutes = std::strtod(std::string(text.substr(0, m)).c_str(), nullptr);
  const double seconds = std::strtod(std::string(text.substr(m + 1)).c_str(), nullptr);
  return minutes * 60 + seconds;
}

} // namespace

std::optional<Trailer> take_trailer(run::Capture& err, const std::string& nonce)
{
  std::string& text = err.tail.empty() ? err.head : err.tail;
  if (text.empty() || text.back() != '\n') {
    return std::nullopt;
  }
  const auto start = text.rfind("\n" + nonce + " ");
  if (start == std::string::npos) {
    return std::nullopt;
  }
  // "<status> <wall ns> <group left>\n<shell's user> <sys>\n<children's user> <sys>\n"
  std::string line(std::string_view(text).substr(start + 1 + nonce.size() + 1));
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::vector<std::string> fields;
  for (auto& field : util::split(util::trim(line), ' ')) {
    if (!field.empty()) {
      fields.push_back(std::move(field));
    }
  }
  if (fields.size() < 3) {
    return std::nullopt;
  }
  Trailer trailer;
  const auto [end, ec] =
      std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), trailer.status);
  if (ec != std::errc()) {
    return std::nullopt;
  }
  if (fields[1] != "-") {
    trailer.wall_s = std::strtod(fields[1].c_str(), nullptr) / 1e9;
  }
  trailer.group_left = fields[2] == "1";
  if (fields.size() >= 7) { // the children's times: the benchmark's, once the shell waited for it
    trailer.user_s = shell_time(fields[5]);
    trailer.sys_s = shell_time(fields[6]);
  }
  const auto removed = text.size() - start;
  text.erase(start);
  err.total_bytes = err.total_bytes >= removed ? err.total_bytes - removed : 0;
  return trailer;
}

void TrailerFilter::feed(run::Stream stream, std::string_view chunk)
{
  if (stream == run::Stream::Out) {
    m_sink(stream, chunk);
    return;
  }
  if (m_in_trailer) {
    return; // the trailer is the wrapper's last word: nothing of the benchmark follows it
  }
  m_held.append(chunk);
  if (const auto at = m_held.find(m_marker); at != std::string::npos) {
    m_sink(stream, std::string_view(m_held).substr(0, at));
    m_held.clear();
    m_in_trailer = true;
    return;
  }
  // Keep the longest end of what came that could begin the marker; pass the rest on.
  std::size_t keep = std::min(m_held.size(), m_marker.size() - 1);
  while (keep > 0 && m_held.compare(m_held.size() - keep, keep, m_marker, 0, keep) != 0) {
    --keep;
  }
  if (m_held.size() > keep) {
    m_sink(stream, std::string_view(m_held).substr(0, m_held.size() - keep));
    m_held.erase(0, m_held.size() - keep);
  }
}

void TrailerFilter::finish()
{
  if (!m_held.empty() && !m_in_trailer) {
    m_sink(run::Stream::Err, m_held);
  }
  m_held.clear();
  m_in_trailer = false;
}

} // namespace ej::remote
