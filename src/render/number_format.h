#pragma once

#include <optional>
#include <string>

namespace ej::render {

// Numbers in documents, identical on every machine (no locale, fixed rules).

// `significant` significant digits (at least 1), trailing zeros kept ("2.00" for 2 with 3), but
// the integer part is never rounded away (1234.6 with 3 -> "1235"; exact ties round to even). Scientific
// notation below 1e-6 and from 1e15 in magnitude ("1.23e-07"). "-0" is written "0"; NaN "nan", infinities
// "inf" / "-inf".
std::string format_number(double value, int significant);

// A percentage with an explicit sign and `decimals` decimals: "+3.5%", "-12.0%"; a value that
// rounds to zero is "0.0%" (no sign). Non-finite values are "n/a".
std::string format_percent(double percent, int decimals = 1);

// A relative change as ej prints it everywhere (terminal, JSON text, documents): an explicit sign
// and 3 significant digits, at least one decimal: "-58.6%", "+3.52%", "+141.8%", "-0.504%"; a
// value that rounds to zero is "0.0%". Non-finite values are "n/a".
std::string format_change_percent(double percent);

// A signed value with `significant` digits as format_number gives them: "+0.52", "-12.3"; 0 is "0".
std::string format_signed_number(double value, int significant);

// (value - baseline) / |baseline| * 100, or nullopt when the baseline is 0 or either is not finite.
std::optional<double> relative_change_percent(double baseline, double value);

} // namespace ej::render
