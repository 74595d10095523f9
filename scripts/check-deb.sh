#!/usr/bin/env bash
# Builds the Debian package of a configured and built ej (cpack -G DEB), unpacks it into a scratch
# root with dpkg -x, and checks what it holds: the binary, the man page, the three completions, the
# Depends that dpkg-shlibdeps derived, and that the unpacked ej runs.
# Usage: scripts/check-deb.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: scripts/check-deb.sh BUILD_DIR}
rm -f "$build"/ej_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/ej_*.deb)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
dpkg -x "$deb" "$scratch"
fail() { echo "check-deb: $*" >&2; exit 1; }
for f in usr/bin/ej usr/share/man/man1/ej.1 usr/share/bash-completion/completions/ej \
  usr/share/zsh/vendor-completions/_ej usr/share/fish/vendor_completions.d/ej.fish; do
  [ -f "$scratch/$f" ] || fail "$deb lacks /$f"
done
depends=$(dpkg-deb -f "$deb" Depends)
# Every shared library the binary needs comes from a package it depends on (with EJ_STATIC_DEPS
# that is libc6 alone; without, libgit2, SQLite and the others too).
needed=$(objdump -p "$scratch/usr/bin/ej" | awk '$1 == "NEEDED" { print $2 }')
[ -n "$needed" ] || fail "cannot read the shared libraries usr/bin/ej needs"
for soname in $needed; do
  # awk reads to the end: leaving early would end ldconfig with SIGPIPE, which pipefail and set -e
  # turn into this script's exit 141 once the cache outgrows the pipe (CI's did).
  path=$(ldconfig -p | awk -v so="$soname" '$1 == so && /x86-64/ && !found { print $NF; found = 1 }')
  [ -n "$path" ] || fail "ej needs $soname, which this machine does not have"
  # dpkg knows a library by the path its package put it at: /lib or /usr/lib (merged /usr).
  package=$( (dpkg-query -S "$path" || dpkg-query -S "$(readlink -f "$path")") 2>/dev/null | awk -F: 'NR == 1 { print $1 }' || true)
  [ -n "$package" ] || fail "no package holds $path (for $soname)"
  case "$depends" in *"$package"*) ;; *) fail "ej needs $soname (package $package), which Depends lacks: $depends" ;; esac
done
version=$("$scratch/usr/bin/ej" --version)
case "$version" in "ej $(dpkg-deb -f "$deb" Version) (commit "*) ;; *) fail "unexpected ej --version: $version" ;; esac
echo "check-deb: $(basename "$deb"): $version; Depends: $depends"
