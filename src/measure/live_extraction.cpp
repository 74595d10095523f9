#include "measure/live_extraction.h"

#include "measure/text_source.h"
#include "util/error.h"

namespace ej::measure {

LiveExtraction::LiveExtraction(const std::vector<MetricSpec>& metrics) : m_metrics(metrics) {}

bool LiveExtraction::reads_live(const MetricSpec& spec)
{
  return spec.file.empty() && reader_for(spec.kind).scanner != nullptr;
}

void LiveExtraction::start_repeat()
{
  for (auto* stream : {&m_out, &m_err}) {
    stream->partial.clear();
    stream->scanners.clear();
  }
  for (const auto& metric : m_metrics) {
    if (reads_live(metric)) {
      (metric.from_stderr ? m_err : m_out)
          .scanners.push_back({&metric, reader_for(metric.kind).scanner(metric), ""});
    }
  }
  m_active = true;
}

void LiveExtraction::stop()
{
  m_active = false;
}

void LiveExtraction::deliver(Stream& stream, std::string_view lines)
{
  for (auto& scanner : stream.scanners) {
    if (!scanner.error.empty()) {
      continue;
    }
    try {
      scanner.scanner->read(lines);
    } catch (const Error& error) {
      scanner.error = error.what(); // thrown again by scanner_for, after the repeat
    }
  }
}

void LiveExtraction::feed(bool from_stderr, std::string_view data)
{
  auto& stream = from_stderr ? m_err : m_out;
  if (!m_active || stream.scanners.empty()) {
    return;
  }
  const auto last_newline = data.rfind('\n');
  if (last_newline == std::string_view::npos) {
    stream.partial += data;
    if (stream.partial.size() >= TextSource::k_max_chunk_bytes) {
      deliver(stream, stream.partial); // a line longer than any piece: cut, as a file read is
      stream.partial.clear();
    }
    return;
  }
  auto lines = data.substr(0, last_newline + 1);
  if (!stream.partial.empty()) {
    const auto first_newline = lines.find('\n');
    stream.partial += lines.substr(0, first_newline + 1);
    deliver(stream, stream.partial);
    stream.partial.clear();
    lines.remove_prefix(first_newline + 1);
  }
  if (!lines.empty()) {
    deliver(stream, lines);
  }
  stream.partial.assign(data.substr(last_newline + 1));
}

void LiveExtraction::end_repeat()
{
  for (auto* stream : {&m_out, &m_err}) {
    if (m_active && !stream->partial.empty()) {
      deliver(*stream, stream->partial);
    }
    stream->partial.clear();
  }
}

LineScanner* LiveExtraction::scanner_for(const MetricSpec& spec)
{
  for (auto* stream : {&m_out, &m_err}) {
    for (auto& scanner : stream->scanners) {
      if (scanner.spec == &spec || *scanner.spec == spec) {
        if (!scanner.error.empty()) {
          throw Error("{}", scanner.error);
        }
        return scanner.scanner.get();
      }
    }
  }
  return nullptr;
}

} // namespace ej::measure
