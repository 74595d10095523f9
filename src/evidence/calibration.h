#pragma once

#include "store/database.h"
#include "store/interleaved_queries.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// What `ej calibrate` learned of a machine: a benchmark measured against itself, interleaved (A/A),
// says how noisy its paired rounds and its single runs are, how far the level drifted during the
// session, and so how small a change a verdict could see. Figures of the benchmark's primary metric,
// pooled over its combinations, from the session's rounds as the journal keeps them.
namespace ej::evidence {

// The smallest change detected with 80% power at 5% (two-sided), for a number of values.
struct Detectable {
  int rounds = 0;    // rounds of an interleaved verdict; repeats a side of a sequential one
  double effect = 0; // in percent, or in `unit` for a metric that is not positive
};

struct Calibration {
  std::string event_id; // the comparison.interleaved of purpose "calibration"
  int candidate = 0;    // its two runs
  int reference = 0;
  std::string bench;
  int revision = 0;
  std::string env_blob; // the environment fingerprint the runs were measured in
  std::int64_t time_ms = 0;
  std::string metric;
  std::string unit;
  bool relative = true;                // figures in percent (a positive metric); else in `unit`
  std::size_t rounds = 0;              // rounds of the session, over every combination
  int block = 1;                       // repeats of each side per round (the noise below is per repeat)
  double paired_noise = 0;             // standard deviation of the per-round values (candidate vs reference)
  double single_noise = 0;             // standard deviation of one side's values from round to round
  double drift = 0;                    // how far the level moved over the session (Theil-Sen, signed)
  bool drift_beyond_noise = false;     // more than two standard errors of what noise alone draws
  std::vector<Detectable> interleaved; // at 10, 20 and 50 rounds
  std::vector<Detectable> sequential;  // two runs measured apart, at 10, 20 and 50 repeats each

  // The smallest change an interleaved verdict of `rounds` rounds could see; a sequential one of
  // `repeats` repeats a side.
  double detectable_interleaved(std::size_t rounds, int session_block = 1) const;
  // The noise of a round whose sides are the medians of `session_block` repeats (paired_noise is per
  // repeat).
  double paired_noise_in_blocks(int session_block) const;
  // The drift in percent (or in `unit`), as printed and compared with a verdict's change.
  double drift_amount() const;
  double detectable_sequential(std::size_t repeats) const;
  // "±1.8%" or "±0.02 ms"
  std::string amount(double effect) const;
};

// The figures of one calibration session; nullopt when it paired no value of the primary metric.
std::optional<Calibration> read_calibration(store::Database& db, const store::InterleavedRecord& record);
// The newest calibration of a benchmark; with env_blob, the newest measured in that environment;
// with revision, the newest of a revision that measures alike it (core::measures_alike): the noise
// of another command says nothing of this one's.
std::optional<Calibration> latest_calibration(store::Database& db, const std::string& bench,
                                              const std::string& env_blob = "",
                                              std::optional<int> revision = std::nullopt);
// Whether a calibration of `bench` at revision `calibrated` holds for its revision `revision`.
bool calibration_applies(store::Database& db, const std::string& bench, int calibrated, int revision);

// "could detect ±1.8% at 20 rounds": what a verdict could have seen, in the words of every verdict
// (`amount` from Calibration::amount; `n` rounds of an interleaved verdict, else repeats a side).
std::string could_detect_text(const std::string& amount, std::size_t n, bool interleaved);

// Lines for ej calibrate and ej bench show, and the JSON both give.
std::vector<std::string> calibration_lines(const Calibration& calibration);
nlohmann::json to_json(const Calibration& calibration);

} // namespace ej::evidence
