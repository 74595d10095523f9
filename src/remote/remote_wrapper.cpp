#include "remote/remote_wrapper.h"

#include "util/hash.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <charconv>
#include <cstdlib>

namespace ej::remote {

const std::string& wrapper_script()
{
  // POSIX sh only (dash, busybox): nothing but the shell, date and kill is needed on the host.
  static const std::string script =
      R"sh(# ej: runs one process of a benchmark run on this host; ej uploaded it.
# usage: sh ej-wrapper.sh NONCE CWD CHECK WORD...
nonce=$1 cwd=$2 check=$3
shift 3
finish() {
  printf '\n%s %s %s %s\n' "$nonce" "$1" "$2" "$3" >&2
  exit 0
}
# The ssh channel is stdin: kept on descriptor 3 for the watcher, /dev/null for the benchmark.
exec 3<&0 </dev/null
if ! cd "$cwd" 2>/dev/null; then
  echo "ej: the working directory $cwd does not exist on $(hostname)" >&2
  finish 126 0 "0m0s 0m0s"
fi
if [ -n "$check" ] && ! command -v "$check" >/dev/null 2>&1; then
  echo "ej: '$check' is not found on $(hostname) (in $cwd, PATH=$PATH)" >&2
  finish 127 0 "0m0s 0m0s"
fi
# When the channel closes (connection lost, ej gone, Ctrl-C), end this whole process group: sshd
# made it for this command, so nothing of the benchmark is left behind on the host.
( trap '' TERM; while read -r _; do :; done; kill -TERM 0; sleep 2; kill -KILL 0 ) <&3 &
watcher=$!
exec 3<&-
start=$(date +%s%N)
"$@"
status=$?
end=$(date +%s%N)
kill -KILL "$watcher" 2>/dev/null
case "$start$end" in
  *[!0-9]*) wall=- ;;
  *) wall=$((end - start)) ;;
esac
children=$(times | sed -n 2p)
finish "$status" "$wall" "$children"
)sh";
  return script;
}

std::string wrapper_file_name()
{
  return "ej-wrapper-" + util::sha256_hex(wrapper_script()).substr(0, 12) + ".sh";
}

std::string wrapper_command(const std::string& wrapper_path, const std::string& nonce, const std::string& cwd,
                            const std::string& check, const std::vector<std::string>& words)
{
  return "sh " + util::shell_join({wrapper_path, nonce, cwd, check}) + " " + util::shell_join(words);
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
  const auto line = std::string_view(text).substr(start + 1 + nonce.size() + 1);
  const auto fields = util::split(util::trim(line), ' ');
  if (fields.size() < 2) {
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
  if (fields.size() >= 4) {
    trailer.user_s = shell_time(fields[2]);
    trailer.sys_s = shell_time(fields[3]);
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
