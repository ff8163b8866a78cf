#!/usr/bin/env bash
# Debian packages from the release archive: `make deb`.
#
#   bash packaging/make_deb.sh [out-dir]      prints the paths of the .debs
#
# Unpacks the archive of packaging/make_dist.sh (so the package is built
# from exactly what PGXN users get), writes debian/changelog for the
# version of sketch.control (date and author of the commit, so two builds of
# one commit agree) and debian/control for the PostgreSQL majors installed
# here (pg_buildext updatecontrol: one package postgresql-NN-sketch per
# major that has its server headers), then runs dpkg-buildpackage, binary
# only and unsigned. Debian's own tools do the build: debhelper's pgxs_loop
# sequence runs `make` and `make install` once per major (debian/rules).
# The package's own test is test/packaging.sh, so the build runs with
# DEB_BUILD_OPTIONS=nocheck.
#
# Needs debhelper, postgresql-server-dev-all and libxxhash-dev
# (test/install-deps.sh installs them as root).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
archive=$(bash "$root/packaging/make_dist.sh" "$out")
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$root/sketch.control")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m zipfile -e "$archive" "$tmp"
src=$tmp/sketch-$version
chmod +x "$src/debian/rules"
{
  echo "sketch ($version-1) unstable; urgency=medium"
  echo
  echo "  * Release $version, commit $(git -C "$root" rev-parse --short=12 HEAD)."
  echo
  echo " -- $(git -C "$root" log -1 --format='%an <%ae>')  $(git -C "$root" log -1 --format=%aD)"
} > "$src/debian/changelog"
(cd "$src" && pg_buildext updatecontrol >&2)
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc >&2)
for deb in "$tmp"/*.deb; do
  cp "$deb" "$out/"
  echo "$out/$(basename "$deb")"
done
