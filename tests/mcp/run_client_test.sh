#!/bin/sh
# ctest's entry to the MCP SDK client test (mcp_client_test.mjs). Without Node.js or the SDK it is
# reported skipped (exit 77), and under CI (CI set, not "false" or "0") it fails instead, as
# tests/support/skip.h has it for every missing service: a broken install must not turn green.
#
#   tests/mcp/run_client_test.sh EJ_BINARY
here=${0%/*}
missing=""
if ! command -v node >/dev/null 2>&1; then
  missing="Node.js (node)"
elif [ ! -f "$here/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  missing="the MCP TypeScript SDK in tests/mcp/node_modules ('npm ci' there)"
fi
if [ -n "$missing" ]; then
  case "${CI:-}" in
  "" | false | 0)
    echo "skipped: missing $missing; scripts/install-deps.sh --test installs it"
    exit 77
    ;;
  *)
    echo "missing under CI: $missing (scripts/install-deps.sh --test installs it)"
    exit 1
    ;;
  esac
fi
# The GPU locks of the test's runs, apart from the machine's (/tmp/ej-gpu-locks): an ej measuring
# anything else on this machine must not hold the test's runs up until it times out.
locks=$(mktemp -d "${TMPDIR:-/tmp}/ej-mcp-locks.XXXXXX") || exit 1
EJ_GPU_LOCK_DIR=$locks node "$here/mcp_client_test.mjs" "$1"
status=$?
rm -rf "$locks"
exit $status
