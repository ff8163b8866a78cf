#!/usr/bin/env bash
# Static check of the extension script pieces (src/sql/*.sql and each type's
# expansion of src/sql/templates/sketch_type.sql.in) and of every
# upgrade script (releases/sketch--<from>--<to>.sql, and the
# sketch--<from>--<to>.sql that make builds at the top) for the rules that keep them safe
# under a hostile search_path (PostgreSQL docs, "Security Considerations for
# Extension Scripts"):
#
#   - no CREATE OR REPLACE (it would adopt an object an attacker created
#     first; an upgrade script, or its hand-written piece
#     src/sql/upgrade--<from>--<to>.sql, may use it for a function or
#     aggregate the extension already owns, see docs/upgrades.md), no
#     SECURITY DEFINER;
#   - every object the script creates is created as @extschema@.<name>, and
#     every later mention of one of those names is @extschema@-qualified;
#   - every function, type or operator named in a definition clause (SFUNC,
#     FINALFUNC, COMBINEFUNC, INPUT, FUNCTION, RESTRICT, JOIN, STYPE, LEFTARG,
#     COMMUTATOR, CAST ... WITH FUNCTION, OPERATOR(...), ...) is qualified
#     with @extschema@ or pg_catalog;
#   - argument and result types of functions are qualified or built-in types
#     (which resolve in pg_catalog: CREATE EXTENSION searches it first);
#   - a function with a SQL or PL body (parsed when called, under the caller's
#     search_path) has SET search_path or a BEGIN ATOMIC body;
#   - every script PostgreSQL runs, and each piece that opens one, starts
#     with SET LOCAL search_path TO pg_catalog, pg_temp (src/sql/common.sql
#     says why).
#
# Usage: test/hardening/check_extension_script.sh [file...]
# Exits non-zero, listing each violation with file and statement, on any.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -gt 0 ]; then
  files=("$@")
else
  files=(src/sql/*.sql)
  # Every type's share of the install script, expanded from
  # src/sql/templates/ as the Makefile does (into the same build/sql/).
  mkdir -p build/sql
  for t in $(bash src/sql/templates/expand_type.sh --list); do
    bash src/sql/templates/expand_type.sh "$t" >"build/sql/$t.type.sql"
    files+=("build/sql/$t.type.sql")
  done
  # Released upgrade scripts as frozen (shipped as they are), then the
  # built ones at the top when make has made them.
  for f in releases/sketch--*--*.sql sketch--*--*.sql; do [ -e "$f" ] && files+=("$f"); done
fi

exec perl -e '
use strict;
use warnings;

my @builtin_types = qw(
  bigint int8 integer int int4 smallint int2 boolean bool real float4 float8 numeric
  decimal text varchar char bpchar name bytea cstring internal oid regtype regclass
  regproc regprocedure jsonb json uuid date time timestamp timestamptz interval void
  record trigger anyelement anyarray anynonarray anycompatible anycompatiblearray
  anyenum anyrange "any" inet cidr tsvector );
my %builtin = map { $_ => 1 } @builtin_types;
# Multi-word built-in type names, matched before splitting into words.
my @multiword = ("double precision", "character varying", "timestamp with time zone",
                 "timestamp without time zone", "time with time zone",
                 "time without time zone");

# Selectivity estimators that operators name in RESTRICT / JOIN. They live in
# pg_catalog, which CREATE EXTENSION always searches first (the script runs
# with search_path = <target schema>, pg_catalog implicitly ahead of it), so
# an unqualified one cannot be captured by a look-alike in the target schema;
# sql/hostile_search_path.sql plants such look-alikes and checks. Writing
# pg_catalog.eqsel is still the clearer form.
my %estimator = map { $_ => 1 } qw(eqsel neqsel eqjoinsel neqjoinsel scalarltsel scalarlesel
  scalargtsel scalargesel scalarltjoinsel scalarlejoinsel scalargtjoinsel scalargejoinsel
  matchingsel matchingjoinsel areasel areajoinsel contsel contjoinsel positionsel
  positionjoinsel);

my $errors = 0;
my (%own, @statements);

sub complain {
  my ($file, $stmt, $msg) = @_;
  my $short = $stmt;
  $short =~ s/\s+/ /g;
  $short = substr($short, 0, 110) . "..." if length($short) > 110;
  print STDERR "$file: $msg\n    in: $short\n";
  $errors++;
}

# Removes comments, blanks out the contents of single-quoted strings (they
# hold C symbol names and COMMENT texts, not references), keeps dollar-quoted
# bodies (code), and splits into statements at top-level semicolons.
sub split_statements {
  my ($text) = @_;
  $text =~ s/^\\.*$//mg;                         # psql meta-commands (\echo ... \quit)
  my @out;
  my $cur = "";
  my $i = 0;
  my $n = length $text;
  while ($i < $n) {
    my $c = substr($text, $i, 1);
    if (substr($text, $i, 2) eq "--") {
      my $e = index($text, "\n", $i);
      $i = $e < 0 ? $n : $e;
      next;
    }
    if (substr($text, $i, 2) eq "/*") {
      my $e = index($text, "*/", $i + 2);
      $i = $e < 0 ? $n : $e + 2;
      $cur .= " ";
      next;
    }
    if ($c eq "\x27") {                          # single-quoted string
      my $j = $i + 1;
      while ($j < $n) {
        if (substr($text, $j, 1) eq "\x27") {
          if (substr($text, $j + 1, 1) eq "\x27") { $j += 2; next; }
          last;
        }
        $j++;
      }
      $cur .= "\x27\x27";
      $i = $j + 1;
      next;
    }
    if ($c eq "\$" && substr($text, $i) =~ /^(\$[A-Za-z_]*\$)/) {   # dollar quote: keep
      my $tag = $1;
      my $e = index($text, $tag, $i + length $tag);
      $e = $n if $e < 0;
      $cur .= substr($text, $i, $e + length($tag) - $i);
      $i = $e + length $tag;
      next;
    }
    if ($c eq ";") {
      push @out, $cur if $cur =~ /\S/;
      $cur = "";
      $i++;
      next;
    }
    $cur .= $c;
    $i++;
  }
  push @out, $cur if $cur =~ /\S/;
  return @out;
}

sub qualified { return $_[0] =~ /^\s*(\@extschema\@|pg_catalog)\s*\./; }

# A type as written in a signature: qualified, or a built-in.
sub type_ok {
  my ($type) = @_;
  $type =~ s/^\s+|\s+$//g;
  $type =~ s/(\s*\[\s*\d*\s*\])+$//;             # arrays
  $type =~ s/\s*\(\s*[\d\s,]*\)\s*$//;           # typmods: numeric(10,2)
  return 1 if qualified($type);
  my $lc = lc $type;
  foreach my $m (@multiword) { return 1 if $lc eq $m; }
  return $builtin{$lc} ? 1 : 0;
}

# One argument of a signature: [mode] [name] type [DEFAULT expr | = expr].
sub argument_ok {
  my ($arg) = @_;
  $arg =~ s/^\s+|\s+$//g;
  return 1 if $arg eq "";
  $arg =~ s/\s+(DEFAULT|=)\s+.*$//is;
  $arg =~ s/^(IN|OUT|INOUT|VARIADIC)\s+//i;
  return 1 if type_ok($arg);
  return 0 unless $arg =~ /^("[^"]+"|\w+)\s+(.+)$/s;   # name type
  return type_ok($2);
}

sub split_top_commas {
  my ($s) = @_;
  my (@parts, $depth, $cur);
  ($depth, $cur) = (0, "");
  foreach my $ch (split //, $s) {
    $depth++ if $ch eq "(";
    $depth-- if $ch eq ")";
    if ($ch eq "," && $depth == 0) { push @parts, $cur; $cur = ""; next; }
    $cur .= $ch;
  }
  push @parts, $cur;
  return @parts;
}

# The text inside the parenthesis that opens at or after $pos.
sub paren_body {
  my ($s, $pos) = @_;
  my $open = index($s, "(", $pos);
  return undef if $open < 0;
  my $depth = 0;
  for (my $k = $open; $k < length $s; $k++) {
    my $ch = substr($s, $k, 1);
    $depth++ if $ch eq "(";
    if ($ch eq ")") { $depth--; return substr($s, $open + 1, $k - $open - 1) if $depth == 0; }
  }
  return undef;
}

my @files = @ARGV;
foreach my $file (@files) {
  open(my $fh, "<", $file) or die "$file: $!\n";
  local $/;
  my $text = <$fh>;
  close $fh;
  my @mine = split_statements($text);
  # A script PostgreSQL runs (a built sketch--*.sql at the top, except the
  # frozen upgrades copied from releases/) and each piece that opens one
  # (src/sql/common.sql, the per-version upgrade piece) pins search_path
  # before anything else: the script of a trusted extension runs as a superuser,
  # and a look-alike of a better-matching signature planted in the target
  # schema would otherwise be run by it (src/sql/common.sql).
  my $opens_script = $file =~ m{^(sketch--[^/]*\.sql|src/sql/common\.sql|src/sql/upgrade--[^/.]*\.[^/.]*\.[^/.]*--[^/.]*\.[^/.]*\.[^/.]*\.sql)\z}
                     && !( $file =~ m{^sketch--(.*)\.sql\z} && -e "releases/sketch--$1.sql" );
  if ($opens_script) {
    my $first = $mine[0] // "";
    $first =~ s/^\s+|\s+$//g;
    complain($file, $first, "the first statement is not SET LOCAL search_path TO pg_catalog, pg_temp")
      unless $first =~ /^SET\s+LOCAL\s+search_path\s+TO\s+pg_catalog\s*,\s*pg_temp$/i;
  }
  push @statements, map { [$file, $_] } @mine;
}

my $kinds = qr/FUNCTION|PROCEDURE|AGGREGATE|TYPE|DOMAIN|TABLE|VIEW|MATERIALIZED\s+VIEW|SEQUENCE|OPERATOR\s+CLASS|OPERATOR\s+FAMILY|OPERATOR|TEXT\s+SEARCH\s+\w+|COLLATION|CONVERSION/i;

# Pass 1: what is created, and how.
foreach my $st (@statements) {
  my ($file, $s) = @$st;
  # An upgrade script may CREATE OR REPLACE a function or aggregate the
  # extension already owns (PostgreSQL refuses, in an extension script, to
  # replace a non-member object); nothing else may (docs/upgrades.md).
  my $upgrade_script = $file =~ m{(^|/)(sketch|src/sql/upgrade)--[^/]*--[^/]*\.sql$};
  complain($file, $s, "CREATE OR REPLACE (would adopt an object created before the extension)")
    if $s =~ /\bCREATE\s+OR\s+REPLACE\b/i
       && !($upgrade_script
            && $s =~ /\bCREATE\s+OR\s+REPLACE\s+(FUNCTION|AGGREGATE)\s+\@extschema\@\./i);
  complain($file, $s, "SECURITY DEFINER") if $s =~ /\bSECURITY\s+DEFINER\b/i;
  if ($s =~ /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?($kinds)\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|[^\s(]+)/i) {
    my ($kind, $name) = ($1, $2);
    if ($name =~ /^\@extschema\@\.(.+)$/) {
      my $bare = $1;
      $bare =~ s/^"|"$//g;
      $own{$bare} = 1 if $bare =~ /^\w+$/;
    } else {
      complain($file, $s, "CREATE $kind $name is not created as \@extschema\@.$name");
    }
  }
}

my @clauses = qw(SFUNC FINALFUNC COMBINEFUNC SERIALFUNC DESERIALFUNC MSFUNC MINVFUNC
  MFINALFUNC FUNCTION PROCEDURE RESTRICT JOIN INPUT OUTPUT RECEIVE SEND TYPMOD_IN TYPMOD_OUT
  ANALYZE SUBSCRIPT STYPE MSTYPE LEFTARG RIGHTARG BASETYPE ELEMENT COMMUTATOR NEGATOR
  SORTOP SUBTYPE CANONICAL SUBTYPE_DIFF);
my $clause_re = join "|", @clauses;

# Pass 2: references.
foreach my $st (@statements) {
  my ($file, $s) = @$st;

  # Definition clauses: NAME = value.
  while ($s =~ /\b($clause_re)\s*=\s*(OPERATOR\s*\([^)]*\)|"[^"]+"(?:\.\S+)?|[^\s,()]+(?:\s+precision)?)/gi) {
    my ($clause, $value) = (uc $1, $2);
    next if $value =~ /^(NONE|true|false)$/i;
    if ($value =~ /^OPERATOR\s*\(\s*(.*?)\s*\)$/i) {
      complain($file, $s, "$clause = $value: operator not schema-qualified") unless qualified($1);
      next;
    }
    if ($clause =~ /^(STYPE|MSTYPE|LEFTARG|RIGHTARG|BASETYPE|ELEMENT|SUBTYPE)$/) {
      complain($file, $s, "$clause = $value: type neither qualified nor built-in") unless type_ok($value);
    } elsif ($clause =~ /^(COMMUTATOR|NEGATOR|SORTOP)$/) {
      complain($file, $s, "$clause = $value: write OPERATOR(\@extschema\@.op)");
    } elsif ($clause =~ /^(RESTRICT|JOIN)$/ && $estimator{lc $value}) {
      next;    # a pg_catalog estimator: see %estimator
    } else {
      complain($file, $s, "$clause = $value: not qualified with \@extschema\@ or pg_catalog")
        unless qualified($value);
    }
  }

  # Operators named anywhere as OPERATOR(...).
  while ($s =~ /\bOPERATOR\s*\(\s*([^)]*?)\s*\)/gi) {
    complain($file, $s, "OPERATOR($1) not schema-qualified") unless qualified($1);
  }

  # Casts: CREATE CAST (source AS target) [WITH FUNCTION f(args)].
  if ($s =~ /^\s*CREATE\s+CAST\s*\(\s*(.+?)\s+AS\s+(.+?)\s*\)/is) {
    my ($from, $to) = ($1, $2);
    foreach my $t ($from, $to) {
      complain($file, $s, "cast type $t neither qualified nor built-in") unless type_ok($t);
    }
    if ($s =~ /\bWITH\s+FUNCTION\s+(\S+?)\s*\(/i) {
      complain($file, $s, "cast function $1 not qualified") unless qualified($1);
    }
  }

  # Function signatures and results.
  if ($s =~ /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|AGGREGATE)\s+(\S+?)\s*\(/is) {
    my $kind = uc $1;
    my $args = paren_body($s, $-[0] + length($&) - 1);
    foreach my $arg (split_top_commas($args // "")) {
      next if $arg =~ /^\s*(\*|ORDER\s+BY)\s*$/i;
      complain($file, $s, "argument \"$arg\": type neither qualified nor built-in")
        unless argument_ok($arg);
    }
    if ($kind ne "AGGREGATE" && $s =~ /\bRETURNS\s+(SETOF\s+)?(TABLE\s*\(|"[^"]+"|\S+(?:\s+precision)?)/i) {
      my ($ret, $at) = ($2, $-[2]);
      if ($ret =~ /^TABLE/i) {
        my $cols = paren_body($s, $at);
        foreach my $col (split_top_commas($cols // "")) {
          complain($file, $s, "RETURNS TABLE column \"$col\": type neither qualified nor built-in")
            unless argument_ok($col);
        }
      } else {
        complain($file, $s, "RETURNS $ret: type neither qualified nor built-in") unless type_ok($ret);
      }
    }
    # Bodies parsed at call time run under the caller'"'"'s search_path.
    if ($s =~ /\bLANGUAGE\s+(\w+)/i && lc($1) !~ /^(c|internal)$/) {
      complain($file, $s, "a LANGUAGE $1 function needs SET search_path = pg_catalog, pg_temp (or a BEGIN ATOMIC body)")
        unless $s =~ /\bSET\s+search_path\b/i || $s =~ /\bBEGIN\s+ATOMIC\b/i;
    }
  }

  # Every mention of an object the extension creates is qualified. Names
  # inside dollar-quoted bodies count too.
  (my $code = $s) =~ s/\@extschema\@\s*\.\s*("[^"]+"|\w+)/ /g;   # drop qualified names
  $code =~ s/\b(pg_catalog|\w+)\s*\.\s*\w+/ /g;                  # other qualified names
  foreach my $word ($code =~ /\b([A-Za-z_]\w*)\b/g) {
    next unless $own{$word};
    # An argument or column name that happens to equal an object name is not
    # a reference; only flag words used as a type, function or relation.
    complain($file, $s, "\"$word\" (created by the extension) is not \@extschema\@-qualified");
  }
}

if ($errors) {
  print STDERR "check_extension_script: $errors violation(s)\n";
  exit 1;
}
printf "check_extension_script: %d statements in %d file(s) follow the rules (%d objects created)\n",
  scalar(@statements), scalar(@files), scalar(keys %own);
' "${files[@]}"
