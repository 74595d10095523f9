#!/bin/sh
# The steps of benchmarks.yml once ej is installed, in one script, so that the workflow and ej's
# own test of it (tests/e2e/ci_gate_test.cpp) run the same commands: restore the team's journal,
# gate on the benchmarks marked for CI, check the plan documents, push the journal back.
#
# Usage: ci-steps.sh [EJ CI OPTIONS...]        e.g. ci-steps.sh --max-rounds 40
# Environment:
#   EJ       the ej to run (default: ej, from PATH)
#   EJ_PUSH  0: do not push the journal back (a pull request from a fork cannot); default 1
# Exit status: ej ci's when it is not 0 (1: a decisive regression, or an error; 2: a usage error,
# such as no benchmark marked for CI); else 1 when a plan document is stale or the journal could not
# be pushed; else 0.
set -u
ej=${EJ:-ej}

# The journal lives in .git/ej, which a fresh checkout lacks: init, then fetch the team's.
"$ej" init || exit 1
"$ej" sync || exit 1

gate=0
"$ej" ci "$@" || gate=$?

# Every plan's document must be what the journal renders (committed after 'ej plan render').
stale=0
for plan in $("$ej" plan list | awk '$3 == "attempts" { print $1 }'); do
  "$ej" plan render "$plan" --check || stale=1
done

# The runs ej ci recorded join the team's journal, whatever the gate said.
if [ "${EJ_PUSH:-1}" != 0 ]; then
  "$ej" sync || { echo "ci-steps.sh: the journal could not be pushed back" >&2; stale=1; }
fi

[ "$gate" -ne 0 ] && exit "$gate"
exit "$stale"
