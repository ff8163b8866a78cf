#!/usr/bin/env bash
# Installs what building and testing sketch needs, when it is missing.
# As root it uses apt-get (one update, then install); otherwise it only
# reports what is missing, since it cannot install anything.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
pg_bin=/usr/lib/postgresql/$PG_MAJOR/bin
missing=()

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

need() {  # need <package> <test command...>
  local pkg=$1; shift
  if ! "$@" >/dev/null 2>&1; then missing+=("$pkg"); fi
}

need "postgresql-$PG_MAJOR"                test -x "$pg_bin/postgres"
need "postgresql-server-dev-$PG_MAJOR"     test -f "$("$pg_bin/pg_config" --pgxs 2>/dev/null || echo /nonexistent)"
need libxxhash-dev                         test -f /usr/include/xxhash.h
need g++                                   command -v g++
need cmake                                 command -v cmake
need make                                  command -v make
need libgtest-dev                          have_pkg libgtest-dev
need libbenchmark-dev                      have_pkg libbenchmark-dev
# Hardening: the libFuzzer targets need clang and its fuzzer/sanitizer
# runtimes; the sanitizer build of the core tests uses g++'s libasan/libubsan
# (libgcc-12-dev, already pulled in by g++); pg_dump/pg_restore and pgbench
# come with postgresql-$PG_MAJOR.
need clang-14                              command -v clang++-14
need libclang-rt-14-dev                    have_pkg libclang-rt-14-dev
need "postgresql-client-$PG_MAJOR"         test -x "$pg_bin/pg_dump"
# The peer extension: the coexistence test and the benchmarks compare with it.
need "postgresql-$PG_MAJOR-hll"            test -f "/usr/share/postgresql/$PG_MAJOR/extension/hll.control"

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
  # The peer is optional for non-root developers; everything else is not.
  for pkg in "${missing[@]}"; do
    [ "$pkg" = "postgresql-$PG_MAJOR-hll" ] || exit 1
  done
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
