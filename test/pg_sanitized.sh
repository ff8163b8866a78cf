#!/usr/bin/env bash
# The PostgreSQL layer under UBSan (part of `make test`): the module is built
# again, its C++ (src/pg and src/core) compiled with -fsanitize=undefined,
# and installed into a private copy of the PostgreSQL installation;
# pg_regress and the hostile-role test then run against a server of that
# copy.
#
#   bash test/pg_sanitized.sh            (as root or as the installation's owner)
#
# The server itself is not instrumented. UBSan needs nothing from it: its
# runtime comes with sketch.so. ASan would have to be preloaded into the
# uninstrumented server (LD_PRELOAD; its runtime must come first), and on
# Debian 12 that does not work: postgres (even `postgres -V`) deadlocks at
# start in glibc's bindtextdomain under both gcc 12's and clang 14's
# runtime. PG_SANITIZE=undefined,address tries it all the same (the
# runtime is then preloaded, leak checks off). Every report aborts the
# backend (-fno-sanitize-recover=all, halt_on_error), which pg_regress and
# the hostile-role test see as a crash, and the stage also fails on any
# "runtime error" or AddressSanitizer line in a server log. Memory
# corruption inside PostgreSQL's memory contexts is what the hostile-role
# test's own checks (the messages of a damaged context) look for.
#
# The copy: /usr/lib/postgresql/15 and /usr/share/postgresql/15 under one
# private root. PostgreSQL finds its library and share folders relative to
# the binary it runs from, so a server started from the copy loads the
# sanitized sketch.so and nothing else changes. The hostile-role test runs
# its two roles on one cluster, sharing the setup.
#
# Environment: PG_SANITIZE (undefined) the sanitizers; KEEP=1 keeps
# the private copy (its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
PG_MAJOR=${PG_MAJOR:-15}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
sanitizers=${PG_SANITIZE:-undefined}
bindir=$("$PG_CONFIG" --bindir)
libdir=$("$PG_CONFIG" --pkglibdir)
sharedir=$("$PG_CONFIG" --sharedir)
case $libdir in */lib) ;; *) echo "pg_sanitized: unexpected pkglibdir $libdir" >&2; exit 1 ;; esac
pg_home=${libdir%/lib}   # /usr/lib/postgresql/15: bin and lib

work=$(mktemp -d /tmp/sketch-pgsan.XXXXXX)
chmod 755 "$work"
[ -n "${KEEP:-}" ] && echo "pg_sanitized: keeping $work" || trap 'rm -rf "$work"' EXIT

# 1. The sanitized module, built from a copy of the tree (the shipped
# objects of the work tree stay as they are).
src=$work/src
mkdir -p "$src"
# (test/ and docs/ too: pg_regress reads the golden files and the reference.)
tar -c --exclude=node_modules Makefile sketch.control src releases sql expected test docs | tar -x -C "$src"
flags="-fsanitize=$sanitizers -fno-sanitize-recover=all -fno-omit-frame-pointer"
echo "pg_sanitized: building the module with $flags"
make -s -C "$src" -j2 all SKETCH_EXTRA_CXXFLAGS="$flags" SKETCH_EXTRA_LDFLAGS="-fsanitize=$sanitizers" \
  >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }

# 2. The private installation, with the sanitized module in it.
inst=$work/inst
mkdir -p "$inst$pg_home" "$inst$sharedir"
cp -a "$pg_home/bin" "$pg_home/lib" "$inst$pg_home/"
cp -a "$sharedir/." "$inst$sharedir/"
make -s -C "$src" install DESTDIR="$inst" >>"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
ldd "$inst$libdir/sketch.so" | grep -q 'libubsan\|libasan' ||
  { echo "pg_sanitized: the installed sketch.so links no sanitizer runtime" >&2; exit 1; }
chmod -R a+rX "$inst"

server_env="UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
case $sanitizers in
  *address*)
    asan=$(g++ -print-file-name=libasan.so)
    [ -f "$asan" ] || { echo "pg_sanitized: no libasan.so ($asan)" >&2; exit 1; }
    server_env="$server_env LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:detect_odr_violation=0"
    ;;
esac
export PG_BIN=$inst$bindir PG_SERVER_ENV=$server_env

status=0
findings() {  # <server log>...: prints sanitizer reports, true when there is one
  grep -h -A12 'runtime error\|ERROR: AddressSanitizer\|AddressSanitizer:' "$@" 2>/dev/null | head -n 60
  grep -q 'runtime error\|AddressSanitizer' "$@" 2>/dev/null
}

# 3. pg_regress on the sanitized module.
echo "pg_sanitized: pg_regress"
if ! CLUSTER_SERVER_LOG=$work/regress.server.log bash test/cluster.sh run -- make -C "$src" installcheck >"$work/regress.out" 2>&1; then
  cat "$work/regress.out"
  [ -f "$src/regression.diffs" ] && head -n 100 "$src/regression.diffs"
  status=1
else
  grep -E '^(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed)' "$work/regress.out" || true
fi
if findings "$work/regress.server.log"; then
  echo "pg_sanitized: sanitizer reports in pg_regress's server log"
  status=1
fi
regress_status=$status
if [ "$regress_status" = 0 ]; then echo "regress-sanitized: 1 passed, 0 failed"; else echo "regress-sanitized: 0 passed, 1 failed"; fi

# 4. The hostile-role test, each role on a cluster of its own, at once.
# Both roles on one cluster, one after the other: the setup (100,000-row
# tables, every stored value built, raw states captured) is made once for
# both passes (it took as long again when each role had its own cluster).
echo "pg_sanitized: hostile-role test (roles hostile, then superuser)"
rc=0
CLUSTER_SERVER_LOG=$work/hostile.server.log \
  bash test/cluster.sh run -- bash test/hardening/hostile_role.sh >"$work/hostile.out" 2>&1 || rc=$?
echo "---- hostile-role test (exit $rc)"
if [ "$rc" -ne 0 ]; then
  tail -n 80 "$work/hostile.out"
  status=1
else
  grep -E '^hostile_role: ' "$work/hostile.out"
fi
grep -q '^hostile_role: [0-9]* passed, [0-9]* failed' "$work/hostile.out" ||
  echo "hostile_role: 0 passed, 1 failed (the test printed no counts)"
if findings "$work/hostile.server.log"; then
  echo "pg_sanitized: sanitizer reports in the server log of the hostile-role test"
  status=1
fi
grep -q 'runtime error\|AddressSanitizer' "$work"/*.server.log 2>/dev/null ||
  echo "pg_sanitized: no sanitizer report in any server log ($sanitizers)"
exit $status
