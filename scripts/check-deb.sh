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
for lib in libgit2 libsqlite3 libre2 libfmt libssh2 libcmark-gfm libc6; do
  case "$depends" in *"$lib"*) ;; *) fail "Depends lacks $lib: $depends" ;; esac
done
version=$("$scratch/usr/bin/ej" --version)
case "$version" in "ej $(dpkg-deb -f "$deb" Version) (commit "*) ;; *) fail "unexpected ej --version: $version" ;; esac
echo "check-deb: $(basename "$deb"): $version; Depends: $depends"
