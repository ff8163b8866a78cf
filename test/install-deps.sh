#!/usr/bin/env bash
# Installs what building and testing sketch needs, when it is missing.
# As root it uses apt-get (one update, then install); otherwise it only
# reports what is missing, since it cannot install anything.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
pg_bin=/usr/lib/postgresql/$PG_MAJOR/bin
missing=()

need() {  # need <package> <test command...>
  local pkg=$1; shift
  if ! "$@" >/dev/null 2>&1; then missing+=("$pkg"); fi
}

# Each check looks for the very file or command the build uses, and that
# file must be shipped by the package named beside it: pg_config and pgxs.mk
# come with postgresql-client-$PG_MAJOR, so they say nothing about the server
# headers. test/deps_mapping.sh verifies every pair with dpkg -S. The list
# is printed by `install-deps.sh --list` as "package<TAB>path-or-command".
deps_list() {
  local incdir
  incdir=$("$pg_bin/pg_config" --includedir-server 2>/dev/null || echo "/usr/include/postgresql/$PG_MAJOR/server")
  cat <<EOF2
postgresql-$PG_MAJOR	$pg_bin/postgres
postgresql-server-dev-$PG_MAJOR	$incdir/postgres.h
postgresql-client-$PG_MAJOR	/usr/lib/postgresql/$PG_MAJOR/lib/pgxs/src/makefiles/pgxs.mk
postgresql-client-$PG_MAJOR	$pg_bin/pg_config
postgresql-client-$PG_MAJOR	$pg_bin/pg_dump
postgresql-client-$PG_MAJOR	$pg_bin/psql
libxxhash-dev	/usr/include/xxhash.h
g++	g++
cmake	cmake
make	make
libgtest-dev	/usr/include/gtest/gtest.h
libbenchmark-dev	/usr/include/benchmark/benchmark.h
clang-14	clang++-14
libclang-rt-14-dev	/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-$(uname -m).a
postgresql-$PG_MAJOR-hll	/usr/share/postgresql/$PG_MAJOR/extension/hll.control
postgresql-$PG_MAJOR-tdigest	/usr/share/postgresql/$PG_MAJOR/extension/tdigest.control
python3-minimal	/usr/bin/python3
nodejs	node
debhelper	/usr/bin/dh
postgresql-server-dev-all	/usr/share/perl5/Debian/Debhelper/Sequence/pgxs_loop.pm
lintian	/usr/bin/lintian
dpkg-dev	/usr/bin/dpkg-buildpackage
EOF2
}
# Hardening: the libFuzzer targets need clang and its fuzzer/sanitizer
# runtimes; the sanitizer build of the core tests uses g++'s libasan/libubsan
# (libgcc-12-dev, already pulled in by g++); pgbench comes with
# postgresql-$PG_MAJOR. The peer extension postgresql-$PG_MAJOR-hll: the
# coexistence test and the benchmarks compare with it; the peer extension
# postgresql-$PG_MAJOR-tdigest: the benchmarks,
# test/report/ddsketch_vs_tdigest.sh and test/report/kll_vs_tdigest.sh
# compare ddsketch and kll with it.
# python3-minimal: the docs test (test/docs/run.sh uses only its standard
# library). nodejs: the Parquet interoperability test (test/interop/parquet.sh
# runs DuckDB's Node.js package); npm comes with some nodejs builds and is a
# package of its own in Debian's, so it is checked apart below, as a command
# (no file of it is the same in both).

if [ "${1:-}" = --list ]; then deps_list; exit 0; fi

present() {  # an absolute path (or glob) must exist; a bare name must be a command
  case $1 in
    /*) compgen -G "$1" ;;
    *) command -v "$1" ;;
  esac
}
while IFS=$'\t' read -r pkg what; do
  need "$pkg" present "$what"
done < <(deps_list)
need npm present npm
# A package listed for several files is installed once.
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
  # The peers are optional for non-root developers; everything else is not.
  for pkg in "${missing[@]}"; do
    case $pkg in
      "postgresql-$PG_MAJOR-hll" | "postgresql-$PG_MAJOR-tdigest") ;;
      *) exit 1 ;;
    esac
  done
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
