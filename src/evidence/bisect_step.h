#pragma once

#include "core/run_records.h"
#include "evidence/bisect_search.h"
#include "evidence/interleaved_verdict.h"

#include <optional>
#include <string>

// What ej bisect reads off interleaved verdicts: the step BAD made against GOOD, and on which side
// of it a commit measured against GOOD lies. A commit is bad when its verdict against GOOD moved
// the way BAD did, beyond half the step; good when it stayed within half the step (equivalent) or
// moved the other way. Half the step, not the benchmark's minimum effect alone: with no minimum
// effect (the default) "equivalent" could never be decided, and a commit at GOOD's level is as far
// from the middle as one at BAD's, so both are decided in as few rounds.
namespace ej::evidence {

struct BisectStep {
  measure::Outcome outcome = measure::Outcome::Regressed; // or Improved: what BAD did against GOOD
  // The band commits are judged in: half the smallest series' step, at least the benchmark's
  // minimum effect, at most 99% (measure::effect_band's limit).
  double min_effect_pct = 0;
  PairedVerdict series; // the series of the step (the first that stepped): its change and interval
};

// The step of the verdict's metric (verdict.primary) in BAD's verdict against GOOD; nullopt when
// no series of it moved decisively beyond the minimum effect. Throws ej::Error when series moved
// both ways: a sweep whose combinations stepped apart is bisected one combination at a time.
std::optional<BisectStep> step_of(const InterleavedVerdict& bad_against_good);

// Good, bad or inconclusive: a commit's verdict against GOOD, judged in the step's band (the
// comparison recorded it as its min effect). Bad when any series of the metric moved as the step
// did; good when every one is equivalent or moved the other way.
CommitClass classify(const InterleavedVerdict& against_good, const BisectStep& step);

// "+200.3% [+190.1%, +210.0%]": a series' change against GOOD and its interval.
std::string change_text(const PairedVerdict& series);
// The same for a recorded answer: its first bad commit's (or its range's last) against GOOD.
std::string change_text(const core::LocatedStep& located);

} // namespace ej::evidence
