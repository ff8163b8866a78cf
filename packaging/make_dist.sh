#!/usr/bin/env bash
# The PGXN release archive, from git: `make dist`.
#
#   bash packaging/make_dist.sh [out-dir]     prints the archive's path
#
# The archive is `git archive` of HEAD (what is committed, never the work
# tree) under the top directory sketch-<version>/, plus META.json made from
# packaging/META.json.in with the version of sketch.control: the version is
# written in one place, and META.json, the Makefile (EXTVERSION) and the
# Debian changelog (packaging/make_deb.sh) read it from there. The archive
# is checked against the PGXN Meta Spec (packaging/pgxn_meta_check.py)
# before its path is printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/dist}
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$root/sketch.control")
[ -n "$version" ] || { echo "make_dist: no default_version in sketch.control" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s/@VERSION@/$version/g" "$root/packaging/META.json.in" > "$tmp/META.json"
archive=$out/sketch-$version.zip
rm -f "$archive"
git -C "$root" archive --format=zip --prefix="sketch-$version/" --add-file="$tmp/META.json" \
  -o "$archive" HEAD
python3 "$root/packaging/pgxn_meta_check.py" "$tmp/META.json" --dist "$archive" \
  --control "$root/sketch.control" >&2
echo "$archive"
