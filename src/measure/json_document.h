#pragma once

// The JSON document in a program's output, as every JSON reader reads it (json, nvbench,
// gbench, hyperfine, ...).

#include "measure/metric_spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// The JSON document in a program's output. Log lines before it are skipped (it may start on
// any line that opens with '{' or '['), and so are earlier records of JSON Lines: the last is
// read. Text after it is an error; so is text where no document starts (the message says what the
// metric's reader expects and shows the text's last lines). Python's NaN and Infinity become the strings
// "NaN"... so that only a metric reading one fails. Throws ej::Error naming the line and column of the first
// mistake and what to do.
nlohmann::json parse_json_output(const MetricSpec& spec, std::string_view text);

// The array under `key` in a tool's JSON document. Throws ej::Error otherwise, naming the tool
// ("hyperfine's") and saying how to have it write that document (`how`).
const nlohmann::json& tool_array(const MetricSpec& spec, const nlohmann::json& document,
                                 const std::string& key, std::string_view tool, std::string_view how);

// Whether a JSON document may start in text: it opens with '{', or '[' and a value (after blanks), or
// a line does; a log line's "[ RUN      ]" opens none.
// A console log with none holds no JSON, whatever numbers it prints (a date's 2023 is no document).
bool has_json_start(std::string_view text);

// Every record of JSON Lines (one document per line; other lines, such as log lines, are
// skipped), or the one document of a text that is a single (pretty-printed) document. Throws
// ej::Error naming the line of a record that is not valid JSON, or when there is none.
std::vector<nlohmann::json> parse_json_records(const MetricSpec& spec, std::string_view text);

// A JSON value as a finite number (numbers and numeric strings); throws ej::Error naming the
// metric and the text otherwise. `where` says which value, for the message.
double json_number(const MetricSpec& spec, const nlohmann::json& value, std::string_view where);

// "an object with keys 'a', 'b'", "an array of 3 elements ...", "the string x", for messages.
std::string describe_node(const nlohmann::json& node);

} // namespace ej::measure
