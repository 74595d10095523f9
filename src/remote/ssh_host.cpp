#include "remote/ssh_host.h"

#include "run/signals.h"
#include "util/error.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <unistd.h>

namespace ej::remote {

namespace {

std::string random_word(std::string_view prefix)
{
  std::random_device device;
  return fmt::format("{}{:08x}{:08x}", prefix, device(), device());
}

// A blocking write of all of it: the host's output comes at network speed.
void write_all(int fd, std::string_view data)
{
  while (!data.empty()) {
    const auto n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      if (n < 0 && errno == EIO) { // ej's terminal hung up: as a SIGHUP, which may never come
        run::InterruptGuard::hang_up();
      }
      return; // ej's output is gone: the capture still has everything
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

// What ssh said last ("Connection to ... closed by remote host.").
std::string last_line(const std::string& text)
{
  const auto all = util::lines(text);
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (!util::trim(*it).empty()) {
      return util::first_line(*it, 200);
    }
  }
  return {};
}

// The whole of a large output, from its spool file.
std::string read_spooled(const run::Capture& capture)
{
  if (!capture.whole || !capture.whole->ok()) {
    throw Error("the result files brought back from the host did not fit in memory nor on disk ({}): free "
                "space in $TMPDIR and run again",
                capture.whole ? capture.whole->error() : "no whole copy was kept");
  }
  std::string text(capture.whole->size(), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const auto n =
        ::pread(capture.whole->fd(), text.data() + done, text.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      throw Error("cannot read back the result files brought from the host: {}",
                  n < 0 ? std::strerror(errno) : "short file");
    }
    done += static_cast<std::size_t>(n);
  }
  return text;
}

} // namespace

SshHost::SshHost(const SshConnection& connection, std::string wrapper_path,
                 std::vector<std::pair<std::string, std::string>> env)
    : m_connection(connection), m_wrapper_path(std::move(wrapper_path)), m_env(std::move(env)),
      m_nonce(random_word("ej-end-")), m_guard(random_word("ssh."))
{
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw Error("cannot create a pipe: {}", std::strerror(errno));
  }
  m_stdin_read.reset(fds[0]);
  m_stdin_write.reset(fds[1]);
}

run::ProcessSpec SshHost::prepare(run::ProcessSpec spec)
{
  std::vector<std::string> words = {"env"};
  for (const auto& entries : {m_env, spec.env}) {
    for (const auto& [name, value] : entries) {
      words.push_back(name + "=" + value);
    }
  }
  std::string check;
  if (spec.shell) {
    words.insert(words.end(), {"sh", "-c", *spec.shell});
  } else {
    check = spec.argv.empty() ? std::string() : spec.argv.front();
    words.insert(words.end(), spec.argv.begin(), spec.argv.end());
  }
  auto command = wrapper_command(m_wrapper_path, m_nonce, m_guard, spec.cwd.string(), check, words);
  m_cwd = spec.cwd;
  if (m_results) {
    command = m_results->before_repeat(spec.cwd) + " && " + command;
  }

  run::ProcessSpec local = std::move(spec);
  local.argv = m_connection.argv(command);
  local.shell.reset();
  local.cwd.clear();
  local.env.clear();
  local.stdin_fd = m_stdin_read.get();
  // ej echoes what passes the filter itself: the trailer is never shown.
  const bool echo = local.echo;
  local.echo = false;
  auto downstream = std::move(local.on_output);
  auto filter =
      std::make_shared<TrailerFilter>(m_nonce, [echo, downstream](run::Stream stream, std::string_view data) {
        if (echo) {
          write_all(stream == run::Stream::Out ? STDOUT_FILENO : STDERR_FILENO, data);
        }
        if (downstream) {
          downstream(stream, data);
        }
      });
  std::erase_if(m_filters, [](const auto& kept) { return kept.expired(); });
  m_filters.push_back(filter);
  local.on_output = [filter](run::Stream stream, std::string_view data) { filter->feed(stream, data); };
  return local;
}

void SshHost::settle(run::ProcessResult& result)
{
  for (const auto& kept : m_filters) {
    if (const auto filter = kept.lock()) {
      filter->finish();
    }
  }
  if (result.ending == run::Ending::SpawnFailed) {
    return;
  }
  const auto trailer = take_trailer(result.err, m_nonce);
  if (result.ending == run::Ending::TimedOut || result.ending == run::Ending::Interrupted) {
    return; // ej ended it; closing the channel ended the remote group
  }
  if (!trailer) {
    const auto said = last_line(result.err.text());
    if (said.rfind("ej-result-files: ", 0) == 0) { // the step before the repeat refused
      result.error = said.substr(17);
      result.ending = run::Ending::SpawnFailed;
      return;
    }
    result.error = fmt::format("the connection to {} was lost ({}); the process group there was ended",
                               m_connection.destination(), said.empty() ? run::describe(result) : said);
    result.ending = run::Ending::Interrupted;
    return;
  }
  // An exit status over 128 is how a shell reports a death by signal.
  if (trailer->status > 128 && trailer->status < 128 + 65) {
    result.ending = run::Ending::Signaled;
    result.signal = trailer->status - 128;
    result.exit_code = 0;
  } else {
    result.ending = run::Ending::Exited;
    result.exit_code = trailer->status;
    result.signal = 0;
  }
  if (trailer->wall_s) {
    result.wall_s = *trailer->wall_s;
  }
  result.user_s = trailer->user_s;
  result.sys_s = trailer->sys_s;
  result.leftovers_killed = trailer->group_left;
  result.max_rss_kb = 0; // the host's shell cannot tell it
  if (m_results && result.succeeded()) {
    bring_back_results(result);
  }
}

// A repeat whose result files cannot be brought back was not measured: it ends the run as
// interrupted (most often the connection went), with the repeats before it kept.
void SshHost::bring_back_results(run::ProcessResult& result)
{
  try {
    const auto fetched =
        m_connection.run(m_results->fetch_command(m_cwd), "bring back the result files", {}, 120,
                         /*keep_whole=*/true);
    if (!fetched.succeeded()) {
      throw Error("{}", last_line(fetched.err.text()));
    }
    const auto printed = fetched.out.cut_bytes > 0 ? read_spooled(fetched.out) : fetched.out.text();
    for (const auto& line : m_results->unpack(printed, m_cwd)) {
      std::fprintf(stderr, "ej: on %s: %s\n", m_connection.destination().c_str(), line.c_str());
    }
  } catch (const Error& error) {
    result.ending = run::Ending::Interrupted;
    result.error = fmt::format("the result files of the repeat could not be brought back from {}: {}",
                               m_connection.destination(), error.what());
  }
}

void SshHost::fetch_result_files(const std::vector<std::string>& spec_files, const std::string& run_label,
                                 const std::filesystem::path& work_tree)
{
  if (spec_files.empty()) {
    return;
  }
  const auto home = std::filesystem::path(m_wrapper_path).parent_path().string(); // ~/.cache/ej there
  m_results = std::make_unique<ResultFetch>(spec_files, run_label, home + "/runs/" + m_nonce, work_tree);
}

std::optional<run::Leftovers> SshHost::stop_leftovers()
{
  const auto out = m_connection.check(leftovers_command(m_wrapper_path, m_guard),
                                      "stop what the benchmark left running", {}, 60);
  run::Leftovers leftovers;
  leftovers.found_by = "environment";
  leftovers.processes = std::atoi(std::string(util::trim(out)).c_str());
  return leftovers;
}

std::filesystem::path SshHost::local_path(const std::filesystem::path& path) const
{
  return m_results ? m_results->local_path(path) : path;
}

SshHost::~SshHost()
{
  if (m_results) {
    try {
      m_connection.run(m_results->cleanup_command(), "remove the run's state", {}, 30);
    } catch (const std::exception&) {
      // A few bytes left under ~/.cache/ej/runs on the host; the run itself is recorded.
    }
  }
}

std::optional<std::string> SshHost::read_text(const std::filesystem::path& path)
{
  const auto quoted = util::shell_quote(path.string());
  const auto out = m_connection.check(
      "if [ -f " + quoted + " ]; then echo y; cat " + quoted + "; else echo n; fi", "read " + path.string());
  if (out.rfind("y\n", 0) != 0) {
    return std::nullopt;
  }
  return out.substr(2);
}

void SshHost::write_text(const std::filesystem::path& path, const std::string& text)
{
  const auto quoted = util::shell_quote(path.string());
  const auto temporary = util::shell_quote(path.string() + ".tmp");
  m_connection.check("cat > " + temporary + " && mv " + temporary + " " + quoted, "write " + path.string(),
                     text);
}

} // namespace ej::remote
