#!/usr/bin/env bash
# ej's own performance work, kept with ej: registers the benchmarks of tests/perf as ej
# benchmarks in this repository's journal (in the git directory, never committed), for a session
# that records its attempts with their measured figures and renders journal/ej-performance.md.
# The committed document is rebuilt from its own facts by journal/replay.sh; a session adds its
# attempts to that script too, so that the document stays re-renderable from a clone.
#
#   journal/record-session.sh BUILD_DIR      e.g. build/release (with the tests/perf binaries)
#
# Figures measured before the journal existed are recorded with `ej record` (imported, with the
# benchmark output they come from as the source); later ones with `ej run` of the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?usage: journal/record-session.sh BUILD_DIR}" && pwd)
ej="$build/ej"
[ -x "$ej" ] || { echo "record-session: $ej is missing; build ej first" >&2; exit 1; }
export NO_COLOR=1

"$ej" init >/dev/null
# shellcheck source=journal/definitions.sh
source journal/definitions.sh
create_plan "$ej"
register_benchmarks "$ej" "$build/tests"
echo "record-session: benchmarks registered; record attempts with ej try / ej record / ej run, then:"
echo "  $ej plan render ej-performance"
