#!/usr/bin/env bash
# The docs test, run by `make test` (and `make docs-test`) against the
# throwaway cluster of test/cluster.sh:
#
#   bash test/cluster.sh run -- bash test/docs/run.sh [file.md...]
#   bash test/docs/run.sh --citus HOST:PORT,HOST:PORT,... [file.md...]
#
# Every ```sql block of README.md and docs/*.md (or of the files given) runs
# as written, in order, and every result the block shows is compared with the
# real one, so the docs cannot drift from the code. Needs psql and python3
# (standard library only); the server is the one of PGHOST/PGPORT/PGUSER, as
# a superuser.
#
# Databases. Each page runs in a fresh database of its own (docs_<page>,
# dropped afterwards; DOCS_KEEP=1 keeps them), in one psql session, so
# SET, setseed() and transactions carry over from block to block.
# The test runs CREATE EXTENSION sketch first, unless the first block of the
# database creates extensions itself (README.md, DESIGN.md; a block that
# installs postgresql-hll, whose type hll clashes with ours, in a database
# without sketch).
#
# Results. What the docs already write is what is checked:
#
#   SELECT # hll_agg(g) FROM generate_series(1, 1000) g;   -- 1000
#       a comment after the ';' of a statement that returns rows is its
#       result: one value, or one row as `v1, v2, ...` (each value may be
#       preceded by its column name: `bits 9585059, hashes 7`); `no rows`;
#       t/true and f/false are the same; a trailing `(remark)` is ignored
#       when the value alone matches; `~0.158` matches any number that
#       rounds to it. After a statement that returns no rows (CREATE ...)
#       such a comment is a remark and is not checked.
#   SELECT 'abc'::hll;   -- ERROR 22P02: invalid input syntax for type hll
#       the statement fails with that SQLSTATE, and the message starts with
#       the text after ':' when there is one (`-- ERROR 22023 (why)` checks
#       the SQLSTATE only).
#   comment lines right after the statement (no blank line between), or
#   psql's own output pasted below it (ending with `(N rows)`):
#       a table (header, optional ---+--- line, rows; `... (9 rows)` after
#       the first rows shown checks those and the count), `ERROR:  ...` with
#       DETAIL/HINT lines, a command tag (`-- SELECT 860749`), or a value
#       starting with { or [ (jsonb), possibly over several lines. Cells are
#       compared with whitespace normalized.
#   CREATE EXTENSION sketch;   -- or: CREATE EXTENSION sketch SCHEMA sketch;
#       an alternative after `-- or:` runs too, in a fresh database.
#   Any other statement only has to succeed.
#
# Directives: an HTML comment right before the ```sql fence (invisible when
# the page is rendered), one per line (a flag, fresh-database or citus, may
# be followed by another directive: <!-- docs-test: fresh-database requires hll -->):
#
#   <!-- docs-test: needs clicks events -->   run these fixtures of
#       test/docs/fixtures.sql first (once per page): the tables a short
#       example queries as "your" data. Prefer visible setup in the docs
#       (as README's quick start does) where it helps the reader.
#   <!-- docs-test: fresh-database -->   this and the following blocks run
#       in a new database (e.g. one that installs sketch into a schema).
#   <!-- docs-test: requires hll -->   skipped (and said so) when the
#       extension is not available on the server.
#   <!-- docs-test: skip <reason> -->   not run; reported as skipped with
#       the reason. Keep these rare: a block that cannot run is a block that
#       nobody checks.
#   <!-- docs-test: citus -->   needs a Citus cluster (docs/distributed.md):
#       reported as skipped ("needs a Citus cluster: run by test/citus.sh")
#       here, and run by test/citus.sh, which starts a coordinator and two
#       workers and runs
#         test/docs/run.sh --citus COORDINATOR,WORKER,... docs/distributed.md
#       (each node as host:port, as the nodes reach each other): then only
#       the blocks marked citus run, each page's databases are created on
#       every node with CREATE EXTENSION citus and the workers registered,
#       and psql connects to the coordinator; the other blocks are skipped
#       (run by the plain docs test).
#
# Output: one line per block, `ok`, `FAIL` (with the statement's line, the
# error or the expected and actual result) or `skip` (with the reason), then
# `docs: N passed, M failed, K skipped`. Exits 1 when a block failed.
# DOCS_JOBS (default 2) pages run in parallel.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 test/docs/docs_test.py "$@"
