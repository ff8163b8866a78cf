#!/usr/bin/env bash
# A private copy of a PostgreSQL installation, to install the extension into
# without touching the system's (a second work tree, a build of another
# major, a sanitized module):
#
#   bash test/pg_private.sh <dir> [pg_config]     prints the copy's pg_config
#
# PostgreSQL finds its share, library and include folders relative to the
# binary it runs from (pg_config included), so in the copy
#   make PG_CONFIG=<dir>/usr/lib/postgresql/15/bin/pg_config install
# installs there, and test/cluster.sh (with PG_CONFIG set the same way)
# starts servers from there. Copies bin, lib (PGXS too), share and the
# server headers; about 60 MB.
set -euo pipefail
dir=${1:?usage: $0 <dir> [pg_config]}
PG_CONFIG=${2:-${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}}
libdir=$("$PG_CONFIG" --pkglibdir)
sharedir=$("$PG_CONFIG" --sharedir)
includedir=$("$PG_CONFIG" --includedir-server)
case $libdir in */lib) ;; *) echo "pg_private: unexpected pkglibdir $libdir" >&2; exit 1 ;; esac
pg_home=${libdir%/lib}
mkdir -p "$dir$pg_home" "$dir$sharedir" "$dir$includedir"
chmod 755 "$dir"
cp -a "$pg_home/bin" "$pg_home/lib" "$dir$pg_home/"
cp -a "$sharedir/." "$dir$sharedir/"
cp -a "$includedir/." "$dir$includedir/"
chmod -R a+rX "$dir"
echo "$dir$pg_home/bin/pg_config"
