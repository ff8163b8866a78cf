#!/usr/bin/env bash
# Writes one sketch type's share of the extension script: the template
# sketch_type.sql.in with the type's line of sketch_types.txt filled in.
#
#   bash src/sql/templates/expand_type.sh <type>   the type's SQL on stdout
#   bash src/sql/templates/expand_type.sh --list   the types, one a line
#
# Plain bash and sed, so building the script needs nothing new. Fails on an
# unknown type or flag, and when a placeholder or [flag] is left over.
set -euo pipefail
here=$(dirname "$0")
table=$here/sketch_types.txt
template=$here/sketch_type.sql.in
known_flags="typmod filter union_no_final"

# The table's lines without comments, fields trimmed: type|storage|...
entries() {
  grep -v -e '^#' -e '^[[:space:]]*$' "$table" | sed -E 's/[[:space:]]*\|[[:space:]]*/|/g; s/[[:space:]]+$//'
}

if [ "${1:-}" = --list ]; then
  entries | cut -d'|' -f1
  exit 0
fi
want=${1:?usage: $0 <type> | --list}

line=$(entries | awk -F'|' -v t="$want" '$1 == t')
[ -n "$line" ] || { echo "expand_type: no type $want in $table" >&2; exit 1; }
IFS='|' read -r type storage union_sspace flags noun equal_means <<<"$line"
case $storage in extended|external) ;; *) echo "expand_type: $type: storage $storage is neither extended nor external" >&2; exit 1 ;; esac
case $union_sspace in ''|*[!0-9]*) echo "expand_type: $type: union sspace $union_sspace is not a number of bytes" >&2; exit 1 ;; esac
for flag in $flags; do
  case " $known_flags " in *" $flag "*) ;; *) echo "expand_type: $type: unknown flag $flag" >&2; exit 1 ;; esac
done

# A value as SQL string text (quotes doubled) and as a sed replacement.
sql_text() { printf '%s' "${1//\'/\'\'}"; }
sed_value() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }

script=()
for flag in $known_flags; do
  case " $flags " in
    *" $flag "*) script+=(-e "/\[!$flag\]/d" -e "s/\[$flag\]//g") ;;
    *)           script+=(-e "/\[$flag\]/d" -e "s/\[!$flag\]//g") ;;
  esac
done
script+=(-e "s|@TYPE@|$(sed_value "$type")|g"
         -e "s|@STORAGE@|$storage|g"
         -e "s|@UNION_SSPACE@|$union_sspace|g"
         -e "s|@NOUN@|$(sed_value "$(sql_text "$noun")")|g"
         -e "s|@EQUAL_MEANS@|$(sed_value "$(sql_text "$equal_means")")|g")

# The template's first paragraph describes the template; the expansion
# starts after it.
out=$(printf -- '-- %s: generated from src/sql/templates/sketch_type.sql.in (expand_type.sh)\n\n' "$type"
      sed '1,/^$/d' "$template" | sed "${script[@]}")
if left=$(grep -nE '@[A-Z_]+@|^\[!?[a-z]+\]' <<<"$out"); then
  echo "expand_type: $type: left over in the expansion:" >&2
  echo "$left" >&2
  exit 1
fi
printf '%s\n' "$out"
