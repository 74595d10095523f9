#!/usr/bin/env bash
# Installs the Debian packages ej needs to build and test; only what is missing.
# Used by both README commands and by CI. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libsqlite3-dev sqlite3 libcmark-gfm-dev libcmark-gfm-extensions-dev libcli11-dev libfmt-dev
  libgit2-dev catch2 nlohmann-json3-dev libkainjow-mustache-dev libre2-dev
  nettle-dev hyperfine
)
if [ "${1:-}" = "--test" ]; then
  packages+=(python3)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
