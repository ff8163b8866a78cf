#!/usr/bin/env bash
# The release artifacts as users get them (docs/packaging.md): `make dist`'s
# PGXN archive and `make deb`'s Debian packages, built from HEAD, then the
# package installed into a throwaway root and used.
#
#   bash test/packaging.sh          (make test's stage `packaging`)
#
# Checks, each counted:
#   dist        the archive's META.json passes the PGXN Meta Spec checker,
#               with the version of sketch.control (packaging/make_dist.sh)
#   dist files  the archive holds exactly the committed files and META.json
#   deb         make_deb.sh builds one postgresql-NN-sketch per major
#               pg_buildext finds (here: 15)
#   lintian     no lintian error (warnings are listed, not counted)
#   contents    each package ships the module, the control file, the
#               install script and every upgrade script the Makefile ships
#   installed   in a private copy of the PostgreSQL installation with any
#               sketch files removed, the package's files alone (dpkg -x)
#               give a working extension: CREATE EXTENSION, one exact answer
#               per type, and the \dx comment naming all eight types
# The throwaway root is removed at the end; nothing is installed into the
# system. Needs debhelper, postgresql-server-dev-all, lintian and dpkg-dev
# (test/install-deps.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
passed=0 failed=0
ok() { echo "ok:   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() {
  echo "packaging: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}
for tool in dpkg-buildpackage dh pg_buildext lintian python3; do
  command -v "$tool" >/dev/null || { bad "$tool is not installed (test/install-deps.sh)"; finish; }
done

work=$(mktemp -d /tmp/sketch-packaging.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" sketch.control)

# --- dist -------------------------------------------------------------------
if archive=$(bash packaging/make_dist.sh "$work/dist"); then
  ok "make dist: $(basename "$archive") with a valid META.json (version $version)"
else
  bad "make dist failed"; finish
fi
expected=$( (git ls-files; echo META.json) | sed "s#^#sketch-$version/#" | sort)
actual=$(python3 -c 'import sys, zipfile
for n in zipfile.ZipFile(sys.argv[1]).namelist():
    if not n.endswith("/"): print(n)' "$archive" | sort)
if [ "$expected" = "$actual" ]; then
  ok "the archive holds the $(wc -l <<<"$actual") committed files and META.json"
else
  bad "the archive's files differ from git ls-files + META.json:"
  diff <(echo "$expected") <(echo "$actual") | head -20
fi

# --- deb --------------------------------------------------------------------
if ! debs=$(bash packaging/make_deb.sh "$work/dist" 2>"$work/deb.log"); then
  tail -40 "$work/deb.log"
  bad "make deb failed"; finish
fi
packages=$(grep -v dbgsym <<<"$debs" | grep '\.deb$')
majors=$(cd "$work" && mkdir -p probe/debian && cp "$root/debian/pgversions" probe/debian/ &&
         cd probe && pg_buildext supported-versions)
want=$(for m in $majors; do echo "postgresql-$m-sketch_$version-1"; done | sort)
got=$(for d in $packages; do basename "$d" | sed 's/_[^_]*\.deb$//'; done | sort)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
  ok "make deb: $(paste -sd' ' <<<"$got") (majors: $(paste -sd' ' <<<"$majors"))"
else
  bad "make deb built [$(paste -sd' ' <<<"$got")], expected [$(paste -sd' ' <<<"$want")]"
fi

for deb in $packages; do
  name=$(basename "$deb")
  lint=$(lintian --no-tag-display-limit "$deb" 2>&1 | grep -v '^running with root privileges')
  if grep -q '^E:' <<<"$lint"; then
    bad "lintian errors in $name:"; grep '^E:' <<<"$lint"
  else
    ok "lintian: no errors in $name"
  fi
  grep '^[WI]:' <<<"$lint" | sed 's/^/      lintian says: /'

  major=$(sed -n 's/^postgresql-\([0-9]*\)-sketch_.*/\1/p' <<<"$name")
  files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#')
  missing=""
  for f in "/usr/lib/postgresql/$major/lib/sketch.so" \
           "/usr/share/postgresql/$major/extension/sketch.control" \
           "/usr/share/postgresql/$major/extension/sketch--$version.sql" \
           $(make -s -f Makefile print-upgrades 2>/dev/null | tr ' ' '\n' | sed "s#^#/usr/share/postgresql/$major/extension/#"); do
    grep -qx -- "$f" <<<"$files" || missing="$missing $f"
  done
  upgrades=$(grep -c -- "/extension/sketch--.*--.*\.sql$" <<<"$files")
  if [ -z "$missing" ] && [ "$upgrades" -ge 1 ]; then
    ok "$name ships sketch.so, the control file, sketch--$version.sql and $upgrades upgrade scripts"
  else
    bad "$name lacks:${missing:- any upgrade script}"
  fi

  # --- the package installed into a throwaway root --------------------------
  pg_config=/usr/lib/postgresql/$major/bin/pg_config
  if [ ! -x "$pg_config" ]; then bad "no PostgreSQL $major here to install $name into"; continue; fi
  pc=$(bash test/pg_private.sh "$work/root-$major" "$pg_config") || { bad "pg_private failed"; continue; }
  rm -f "$work/root-$major/usr/lib/postgresql/$major/lib/sketch.so" \
        "$work/root-$major/usr/share/postgresql/$major/extension/sketch"[.-]*
  dpkg -x "$deb" "$work/root-$major"
  chmod -R a+rX "$work/root-$major"
  smoke=$(PG_CONFIG=$pc bash test/cluster.sh run -- psql -X -q -A -t -v ON_ERROR_STOP=1 <<'SQL' 2>&1
CREATE EXTENSION sketch;
SELECT extversion FROM pg_extension WHERE extname = 'sketch';
SELECT obj_description(oid, 'pg_extension') FROM pg_extension WHERE extname = 'sketch';
SELECT hll_cardinality(hll_agg(g))::bigint FROM generate_series(1, 100) g;
SELECT theta_count(theta_agg(g))::bigint FROM generate_series(1, 100) g;
SELECT cms_frequency(cms_agg(g % 10), 3) FROM generate_series(1, 100) g;
SELECT topk_total(topk_agg(g % 3, 4)) FROM generate_series(1, 101) g;
SELECT round(ddsketch_quantile(ddsketch_agg(g::float8), 0.5)) FROM generate_series(1, 99) g;
SELECT bloom_contains(bloom_agg(g, 1000, 0.01), 42) FROM generate_series(1, 100) g;
SELECT counting_bloom_contains(counting_bloom_agg(g, 1000, 0.01), 42) FROM generate_series(1, 100) g;
SELECT cuckoo_contains(cuckoo_agg(g, 1000, 0.01), 42) FROM generate_series(1, 100) g;
SQL
)
  expect="$version"
  if [ "$(sed -n 1p <<<"$smoke")" = "$version" ] &&
     [ "$(sed -n '3,10p' <<<"$smoke" | paste -sd' ')" = "100 100 10 101 50 t t t" ] &&
     comment=$(sed -n 2p <<<"$smoke") &&
     for t in hll theta cms topk ddsketch bloom counting_bloom cuckoo; do
       grep -qw -- "$t" <<<"$comment" || exit 1
     done; then
    ok "$name installed alone: CREATE EXTENSION sketch $expect, one exact answer per type, \\dx names all eight types"
  else
    bad "$name installed alone does not work:"; echo "$smoke" | head -20
  fi
  rm -rf "$work/root-$major"
done
finish
