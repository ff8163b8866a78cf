-- sketch 0.2.0 -> 0.3.0 (docs/upgrades.md): what 0.3.0 adds or changes in
-- the SQL surface. The Makefile builds sketch--0.2.0--0.3.0.sql from this
-- piece, then every src/sql/upgrade--0.2.0--0.3.0.<topic>.sql in sorted
-- order (a family's own changes, written on its branch), then the shared
-- tail (src/sql/literal_overloads.sql, typed_aggregates.sql,
-- privileges.sql), which creates the twins and revokes the privileges of
-- whatever the pieces before it added, and leaves everything that exists
-- alone. A database at 0.1.0 reaches 0.3.0 through
-- sketch--0.1.0--0.3.0.sql, which the Makefile builds from this script's
-- opening lines, the frozen 0.1.0 -> 0.2.0 script (releases/) and this
-- whole script (DIRECT_UPGRADES).
--
-- Stored values of every type read unchanged (no format version changes).

\echo Use "ALTER EXTENSION sketch UPDATE TO '0.3.0'" to load this file. \quit

-- Name lookups while this script runs: pg_catalog only (src/sql/common.sql
-- says why; every upgrade script starts so, test/hardening/trusted.sh
-- checks it under planted look-alikes).
SET LOCAL search_path TO pg_catalog, pg_temp;
