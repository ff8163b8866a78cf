#!/usr/bin/env bash
# Checks that the source tree keeps the architecture docs/DESIGN.md describes
# ("Layout"), so that a new sketch family stays "a core sketch, its traits,
# one SQL file and its tests" and nothing grows a hidden dependency:
#
#   - src/core never includes PostgreSQL (or anything from src/pg);
#   - dependencies point one way: a family folder includes only common/ and
#     itself, in its own layer and in core; common/ includes no family;
#     the only exceptions are the declared family dependencies below;
#   - src/pg never reaches into a core layout: no `detail::` (the core's
#     private namespace of byte offsets and helpers) and no <f>_internal.h;
#     it reads a sketch through the core's accessors and views;
#   - every family has its traits for the shared aggregate-state mechanism
#     (src/core/<f>/<f>_family.h), its pg folder, its SQL file
#     (src/sql/<f>.sql) with its line in src/sql/templates/sketch_types.txt,
#     and its unit tests (test/unit/<f>/);
#   - releases/ holds only frozen release scripts.
#
# Prints each violation and exits 1; prints what it checked on success.
set -euo pipefail
cd "$(dirname "$0")/.."

fail=0
violation() { echo "layout: $*" >&2; fail=1; }

# Declared dependencies between families, as "family:dependency", each
# allowed in both layers (src/core/<family> may include core/<dependency>,
# src/pg/<family> may include pg/<dependency> and core/<dependency>).
# Nothing else may depend on another family.
#   counting_bloom:bloom  a counting Bloom filter uses bloom's positions,
#                         sizing, estimators and stored format (its cells
#                         convert to the bloom filter of the same m and k)
#   ell:hll               ExaLogLog registers convert exactly to hll's
#                         (ell::write_hll writes hll's dense layout)
allowed_dependencies=(
  counting_bloom:bloom
  ell:hll
)

# Families whose core is in and whose PostgreSQL layer (src/pg/<f>/, the SQL
# file, its type line) is not yet: the other per-family checks still apply.
# None today (ell's layer came with issue 27).
core_only_families=()
core_only() {
  local f
  for f in "${core_only_families[@]}"; do
    [ "$f" = "$1" ] && return 0
  done
  return 1
}
allowed() {
  local pair
  for pair in "${allowed_dependencies[@]}"; do
    [ "$pair" = "$1:$2" ] && return 0
  done
  return 1
}

families=()
for dir in src/core/*/; do
  name=$(basename "$dir")
  [ "$name" = common ] || families+=("$name")
done
[ ${#families[@]} -gt 0 ] || violation "no family folder under src/core"

# Every quoted include of our own headers, as "file<TAB>included path".
includes=$(grep -rHo '#include "[^"]*"' src | sed 's/:#include "/\t/; s/"$//')
checked=0

while IFS=$'\t' read -r file included; do
  [ -n "$file" ] || continue
  checked=$((checked + 1))
  layer=$(echo "$file" | cut -d/ -f2)    # core | pg
  folder=$(echo "$file" | cut -d/ -f3)   # common | <family>
  case "$included" in
    core/*|pg/*) ;;
    *) continue ;;                        # same-folder or system headers
  esac
  inc_layer=${included%%/*}
  inc_folder=$(echo "$included" | cut -d/ -f2)
  if [ "$layer" = core ] && [ "$inc_layer" = pg ]; then
    violation "$file includes $included: the core never includes the PostgreSQL layer"
  fi
  if [ "$folder" = common ] && [ "$inc_folder" != common ]; then
    violation "$file includes $included: common/ must not depend on a family"
  elif [ "$folder" != common ] && [ "$inc_folder" != common ] && [ "$inc_folder" != "$folder" ] &&
       ! allowed "$folder" "$inc_folder"; then
    violation "$file includes $included: a family includes only common/, itself and its declared dependencies"
  fi
done <<<"$includes"

if grep -rlE '#include [<"](postgres|fmgr|c|postgres_ext)\.h[>"]|postgres_headers\.h' src/core >/dev/null; then
  violation "src/core includes PostgreSQL headers: $(grep -rlE '#include [<"](postgres|fmgr|c|postgres_ext)\.h[>"]|postgres_headers\.h' src/core | tr '\n' ' ')"
fi

# Comments count too: a comment naming detail:: is a plan to use it.
if grep -rnE 'detail::|namespace detail|_internal\.h' src/pg --include='*.h' --include='*.cpp' >/dev/null; then
  violation "src/pg reads core layouts (use or add a core accessor): $(grep -rnE 'detail::|namespace detail|_internal\.h' src/pg --include='*.h' --include='*.cpp' | cut -d: -f1,2 | tr '\n' ' ')"
fi

for f in "${families[@]}"; do
  [ -f "src/core/$f/${f}_family.h" ] || violation "family $f has no traits src/core/$f/${f}_family.h"
  if core_only "$f"; then
    [ ! -d "src/pg/$f" ] || violation "family $f has src/pg/$f/: remove it from core_only_families"
  else
    [ -d "src/pg/$f" ] || violation "family $f has no src/pg/$f/"
    [ -f "src/sql/$f.sql" ] || violation "family $f has no src/sql/$f.sql"
    grep -qE "^$f[[:space:]]*[|]" src/sql/templates/sketch_types.txt ||
      violation "family $f has no line in src/sql/templates/sketch_types.txt (its type's SQL)"
  fi
  ls "test/unit/$f/"*_test.cpp >/dev/null 2>&1 || violation "family $f has no tests in test/unit/$f/"
done
for dir in src/pg/*/; do
  name=$(basename "$dir")
  [ "$name" = common ] || [ -d "src/core/$name" ] || violation "src/pg/$name has no src/core/$name"
done

# Frozen releases (releases/README.md): install and upgrade scripts only.
for f in releases/*; do
  case ${f#releases/} in
    README.md | sketch--*.sql) ;;
    *) violation "$f: releases/ holds only frozen sketch--<version>.sql and sketch--<old>--<new>.sql (and README.md)" ;;
  esac
done

[ "$checked" -gt 0 ] || violation "found no includes to check"
if [ "$fail" -ne 0 ]; then exit 1; fi
echo "layout: ${#families[@]} families (${families[*]}), $checked includes: dependencies point pg -> core, family -> common (declared: ${allowed_dependencies[*]}); src/pg uses no core detail::"
