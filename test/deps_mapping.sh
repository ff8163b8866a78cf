#!/usr/bin/env bash
# Checks test/install-deps.sh's map from packages to the files it tests for:
# every file (or command) must be shipped by the package install-deps.sh
# would install when it is missing. A wrong pair (the server headers judged
# by pg_config's pgxs.mk, which comes with the client package) passes on any
# machine that happens to have both packages and only fails on a fresh one;
# dpkg -S catches it everywhere.
#
# Prints one line per pair and a closing "N passed, N failed[, N skipped]".
# A pair whose file is not installed (so dpkg cannot say who ships it) is
# skipped, never passed; make test runs this after install-deps, where every
# pair is installed, and then fails on any skip.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
strict=${1:-}   # --strict: a skip is a failure
passed=0; failed=0; skipped=0

owner_of() {  # the packages shipping a path (or the resolved path of a command)
  local what=$1 path
  case $what in
    /*) path=$what ;;
    *) path=$(command -v "$what") || return 1 ;;
  esac
  # dpkg -S takes glob patterns; its answer is "pkg[:arch][, pkg...]: path".
  # A command's own path is what its package ships (g++ ships the /usr/bin/g++
  # link to g++-12); only a path no package ships (an alternatives link) is
  # followed to the file behind it.
  dpkg -S "$path" 2>/dev/null >/dev/null || path=$(readlink -f "$path")
  dpkg -S "$path" 2>/dev/null | sed 's/: .*//; s/, /\n/g' | sed 's/:[a-z0-9]*$//' | sort -u
}

while IFS=$'\t' read -r pkg what; do
  if ! owners=$(owner_of "$what") || [ -z "$owners" ]; then
    echo "skip: $what is not installed, so dpkg cannot say which package ships it (listed as $pkg)"
    skipped=$((skipped + 1)); continue
  fi
  if grep -qx -- "$pkg" <<<"$owners"; then
    echo "ok:   $what is shipped by $pkg"; passed=$((passed + 1))
  else
    echo "FAIL: $what is shipped by $(paste -sd, <<<"$owners"), but install-deps.sh installs $pkg for it"
    failed=$((failed + 1))
  fi
done < <(bash "$here/install-deps.sh" --list)

echo "deps_mapping: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
[ "$strict" != --strict ] || [ "$skipped" -eq 0 ] || exit 1
