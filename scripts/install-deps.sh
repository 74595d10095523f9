#!/usr/bin/env bash
# Installs the Debian packages ej needs to build and test; only what is missing.
# Used by both README commands and by CI. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libsqlite3-dev sqlite3 libcmark-gfm-dev libcmark-gfm-extensions-dev libcli11-dev libfmt-dev
  libgit2-dev libssh2-1-dev catch2 nlohmann-json3-dev libkainjow-mustache-dev libre2-dev
  libpugixml-dev
  nettle-dev hyperfine
)
test_mode=0
if [ "${1:-}" = "--test" ]; then
  test_mode=1
  # clang: libFuzzer, for the fuzz targets (tests/fuzz); openssl: the certificate of the HTTPS
  # server the TLS tests start; strace: which files a command opens; openssh: the sshd the
  # remote-run and sync tests start; slurm-wlm and munge: the single-node Slurm the `--on slurm`
  # tests start
  # zsh, fish, bash-completion and man-db: the completion scripts and the man page are checked in
  # the shells and in man themselves; dpkg-dev: dpkg-shlibdeps for the .deb's Depends
  # chromium: the browser tests of the HTML report; locales: a German locale, to check that numbers
  # print the same under any process locale
  packages+=(python3 openssl strace clang openssh-server openssh-client slurm-wlm munge zsh fish bash-completion man-db dpkg-dev
    chromium locales)
  # Node.js and npm: the MCP test drives ej mcp with the official TypeScript SDK's client, which needs
  # Node 18 or later (bookworm has 18.20). A newer Node installed otherwise (with its own npm) is kept.
  node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$node_major" -lt 18 ] || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The number-format test switches to a German locale; Debian's locales package has none built.
need_locale=0
if [ "$test_mode" = 1 ] && ! locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
  need_locale=1
fi

# The SDK pinned by tests/mcp/package-lock.json, installed as locked (again when the lock changed).
install_mcp_client() {
  [ "$test_mode" = 1 ] || return 0
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/mcp"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "install-deps: npm ci in tests/mcp (the MCP TypeScript SDK, as locked)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}

if [ ${#missing[@]} -eq 0 ] && [ "$need_locale" = 0 ]; then
  install_mcp_client
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}$([ "$need_locale" = 1 ] && echo ' and the de_DE.UTF-8 locale')" >&2
  exit 1
fi
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
if [ ${#missing[@]} -gt 0 ]; then
  # A machine whose last dpkg run was interrupted (an image built in a hurry, a killed install)
  # refuses every install until it is finished; finishing it is what dpkg itself asks for.
  if ! "${as_root[@]}" dpkg --audit >/dev/null 2>&1 || [ -n "$("${as_root[@]}" dpkg --audit 2>/dev/null)" ]; then
    echo "install-deps: finishing an interrupted dpkg run (dpkg --configure -a)" >&2
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive dpkg --configure -a
    "${apt[@]}" install -f -y -qq >/dev/null
  fi
  "${apt[@]}" update -qq
  echo "install-deps: installing ${missing[*]}" >&2
  if ! "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "install-deps: apt-get install failed; finishing dpkg's pending work and trying once more" >&2
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive dpkg --configure -a
    "${apt[@]}" install -f -y -qq >/dev/null
    "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi
if [ "$need_locale" = 1 ]; then
  echo "install-deps: building the de_DE.UTF-8 locale" >&2
  "${as_root[@]}" localedef -i de_DE -c -f UTF-8 de_DE.UTF-8
fi
install_mcp_client
