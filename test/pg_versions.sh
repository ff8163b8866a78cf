#!/usr/bin/env bash
# A PostgreSQL installation of another major (16, 17, 18) to build and test
# the module against, assembled from the pinned pieces of test/pg_versions/pins
# in a cache folder outside the source tree:
#
#   bash test/pg_versions.sh <major>    prints the installation's root; its
#                                       bin/pg_config is what PGXS needs
#
# Exit 77 (with the reason on stderr) when a piece cannot be had: no network,
# a pin no longer in the archive, 16's headers not put in place by hand.
# Every download is checked against its pinned checksum before anything is
# unpacked; nothing is installed into the system.
#
# The root, laid out as PostgreSQL's own relocatable installation (it finds
# lib/ and share/ relative to bin/):
#   bin/       postgres, initdb, pg_ctl (the server package); pg_config, a
#              small script answering what PGXS asks (the packaged pg_config
#              of Debian 13 needs a newer glibc than Debian 12's); psql,
#              pg_dump, pg_restore: PostgreSQL 18's, run through Debian 13's
#              dynamic loader and libraries (one client for every major)
#   lib/postgresql/  the server's modules and PGXS (with pg_regress)
#   share/postgresql/
#   include/postgresql/server/  the major's server headers (Debian's)
#
# Environment: SKETCH_PG_CACHE (/var/cache/sketch-pg) the cache folder.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: $0 <major>}
pins=$(pwd)/test/pg_versions/pins
cache=${SKETCH_PG_CACHE:-/var/cache/sketch-pg}
mkdir -p "$cache"

skip() { echo "pg$major: $*" >&2; exit 77; }

pin() {  # <kind> [<major>]: the pins of that kind (and major), one per line
  awk -v k="$1" -v m="${2:--}" '$1 == k && $2 == m' "$pins"
}

# ---- downloads ----------------------------------------------------------
# Debian packages through a private apt configuration (its own lists and
# cache under $cache/apt; the system's sources and state are not touched),
# from the same archive the system's sources name.
apt_opts=()
apt_ready() {
  [ ${#apt_opts[@]} -gt 0 ] && return 0
  local dir=$cache/apt uri
  mkdir -p "$dir/lists/partial" "$dir/archives/partial"
  uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$uri" ] || skip "no Debian archive in the system's apt sources"
  printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
    "$uri" trixie "$uri" sid >"$dir/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
            -o "Dir::State=$dir" -o "Dir::State::Lists=$dir/lists" -o Dir::State::status=/dev/null
            -o "Dir::Cache=$dir" -o "Dir::Cache::Archives=$dir/archives" -o APT::Sandbox::User=root)
  # The package lists, refreshed once a day.
  if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
    apt-get "${apt_opts[@]}" -qq update >"$dir/update.log" 2>&1 ||
      skip "apt-get update of the private Debian 13 / unstable lists failed ($(tail -n 1 "$dir/update.log"))"
  fi
}

deb() {  # <package> <version> <sha256>: prints the path of the checked .deb
  local pkg=$1 version=$2 sum=$3 dir=$cache/debs file
  mkdir -p "$dir"
  file=$dir/${pkg}_${version//:/%3a}_amd64.deb
  if [ ! -f "$file" ] || ! echo "$sum  $file" | sha256sum -c --status; then
    apt_ready
    rm -f "$file"
    (cd "$dir" && apt-get "${apt_opts[@]}" -qq download "$pkg=$version" >/dev/null 2>"$dir/$pkg.err") ||
      skip "$pkg $version is not in the archive any more ($(tail -n 1 "$dir/$pkg.err")); move its pin in test/pg_versions/pins"
    [ -f "$file" ] || file=$(ls "$dir/${pkg}_"*"_amd64.deb" | head -n 1)
    echo "$sum  $file" | sha256sum -c --status || skip "$pkg $version: checksum differs from the pin"
  fi
  echo "$file"
}

npm_package() {  # <name>@<version> <integrity>: prints the path of the checked tarball
  local spec=$1 integrity=$2 dir=$cache/npm file got
  mkdir -p "$dir"
  file=$dir/$(echo "${spec#@}" | tr '/@' '--').tgz
  got() { echo "sha512-$(openssl dgst -sha512 -binary "$file" | base64 -w0)"; }
  if [ ! -f "$file" ] || [ "$(got)" != "$integrity" ]; then
    command -v npm >/dev/null || skip "npm is not installed (test/install-deps.sh installs it)"
    local tmp
    tmp=$(mktemp -d "$dir/pack.XXXXXX")
    (cd "$tmp" && npm pack -q "$spec" >/dev/null 2>"$tmp/err") ||
      { local reason; reason=$(tail -n 1 "$tmp/err"); rm -rf "$tmp"; skip "npm pack $spec failed ($reason)"; }
    mv "$tmp"/*.tgz "$file"
    rm -rf "$tmp"
    [ "$(got)" = "$integrity" ] || skip "$spec: integrity differs from the pin"
  fi
  echo "$file"
}

# ---- the client: PostgreSQL 18's psql, pg_dump, pg_restore ---------------
client_tree() {  # prints the unpacked client folder
  local dir=$cache/client stamp
  stamp=$(pin client | sha256sum | cut -c1-16)
  if [ "$(cat "$dir/.pins" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$dir.new"
    mkdir -p "$dir.new"
    while read -r _ _ _ pkg version sum; do
      dpkg-deb -x "$(deb "$pkg" "$version" "$sum")" "$dir.new"
    done < <(pin client)
    echo "$stamp" >"$dir.new/.pins"
    rm -rf "$dir"
    mv "$dir.new" "$dir"
  fi
  echo "$dir"
}

# ---- the installation -----------------------------------------------------
root=$cache/pg$major
stamp=$( { pin server "$major"; pin headers "$major"; pin client; cat "$0"; } | sha256sum | cut -c1-16)
if [ "$(cat "$root/.pins" 2>/dev/null)" = "$stamp" ] && [ -x "$root/bin/postgres" ]; then
  echo "$root"
  exit 0
fi

read -r _ _ _ server_spec server_sum < <(pin server "$major") || skip "no server pin for $major"
headers_dir=
if read -r _ _ _ hpkg hversion hsum < <(pin headers "$major"); then
  headers_deb=$(deb "$hpkg" "$hversion" "$hsum")
else
  headers_dir=$cache/headers-$major/server
  [ -f "$headers_dir/pg_config.h" ] ||
    skip "no reachable archive has PostgreSQL $major's server headers; put them in $headers_dir by hand (README)"
fi
tarball=$(npm_package "$server_spec" "$server_sum")
client=$(client_tree)

new=$root.new
rm -rf "$new"
mkdir -p "$new/unpack"
tar -xzf "$tarball" -C "$new/unpack"
mv "$new/unpack/package/native"/* "$new/"
# The package records its shared libraries' .so.N names as a list of links
# (an install script of its own would make them).
grep -o '{"source":"[^"]*","target":"[^"]*"}' "$new/pg-symlinks.json" |
  sed 's/{"source":"native\/\([^"]*\)","target":"native\/\([^"]*\)"}/\1 \2/' |
  while read -r source target; do ln -sf "$(basename "$source")" "$new/$target"; done
rm -rf "$new/unpack"

mkdir -p "$new/include/postgresql"
if [ -n "$headers_dir" ]; then
  cp -a "$headers_dir" "$new/include/postgresql/server"
else
  dpkg-deb -x "$headers_deb" "$new/unpack"
  mv "$new/unpack/usr/include/postgresql/$major/server" "$new/include/postgresql/server"
  rm -rf "$new/unpack"
fi
grep -q "PG_MAJORVERSION_NUM $major\$" "$new/include/postgresql/server/pg_config.h" ||
  skip "the headers in place are not PostgreSQL $major's"
version=$("$new/bin/postgres" --version | awk '{print $3}') || skip "the server of $server_spec does not run here"

cat >"$new/bin/pg_config" <<EOF
#!/bin/sh
# What PGXS asks pg_config, for this assembled PostgreSQL $major
# (written by test/pg_versions.sh).
root=\$(cd "\$(dirname "\$0")/.." && pwd)
for arg; do
  case \$arg in
    --bindir) echo "\$root/bin" ;;
    --sharedir) echo "\$root/share/postgresql" ;;
    --sysconfdir) echo "\$root/etc" ;;
    --libdir) echo "\$root/lib" ;;
    --pkglibdir) echo "\$root/lib/postgresql" ;;
    --includedir) echo "\$root/include" ;;
    --pkgincludedir) echo "\$root/include/postgresql" ;;
    --includedir-server) echo "\$root/include/postgresql/server" ;;
    --mandir) echo "\$root/share/man" ;;
    --docdir | --htmldir) echo "\$root/share/doc/postgresql" ;;
    --localedir) echo "\$root/share/locale" ;;
    --pgxs) echo "\$root/lib/postgresql/pgxs/src/makefiles/pgxs.mk" ;;
    --version) echo "PostgreSQL $version" ;;
    *) echo "pg_config (test/pg_versions.sh): \$arg is not answered" >&2; exit 1 ;;
  esac
done
EOF
for tool in psql pg_dump pg_restore createdb dropdb; do
  cat >"$new/bin/$tool" <<EOF
#!/bin/sh
# PostgreSQL 18's $tool through Debian 13's dynamic loader and libraries.
exec "$client/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$client/usr/lib/x86_64-linux-gnu" "$client/usr/lib/postgresql/18/bin/$tool" "\$@"
EOF
done
chmod 755 "$new/bin/pg_config" "$new/bin/psql" "$new/bin/pg_dump" "$new/bin/pg_restore" "$new/bin/createdb" "$new/bin/dropdb"
"$new/bin/pg_dump" --version >/dev/null 2>&1 || skip "PostgreSQL 18's pg_dump does not run here"
chmod -R a+rX "$new"
echo "$stamp" >"$new/.pins"
rm -rf "$root"
mv "$new" "$root"
echo "$root"
