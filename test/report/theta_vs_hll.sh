#!/usr/bin/env bash
# theta's intersection beside hll's inclusion-exclusion at about the same
# stored bytes: the relative error of |A ∩ B| over overlaps J = |A ∩ B| /
# |A ∪ B| = 0.5, 0.2, 0.1, 0.05, 0.01, with |A ∪ B| = 10^6 and |A| = |B|.
# Writes, in docs/plots/:
#
#   theta_vs_hll.tsv         one row per overlap and sketch: the bytes of a
#                            full sketch, the trials, bias (mean relative
#                            error), RMS and largest |relative error| of
#                            the intersection's estimate, the expected error
#                            (theta: sqrt((|A|/k - 1)/|A ∩ B|); hll: hll.md's
#                            rule 1.04/sqrt(m) · |A ∪ B| / |A ∩ B|), and for
#                            theta how often theta_bounds(a & b) (95%) held
#                            the truth
#   theta_vs_hll_trials.tsv  every trial: the truth, hll_intersect_cardinality
#                            and, for each lg_k, theta_count(a & b) with its
#                            95% bounds
#   theta_vs_hll.png         RMS error over the overlap, and every trial's
#                            error (gnuplot)
#
#   bash test/report/theta_vs_hll.sh   (starts a throwaway cluster,
#                                       test/cluster.sh, unless PGHOST or
#                                       PGDATABASE is set)
#
# Needs the installed extension (make install). The sketches: hll at p = 14
# (the default: 16,384 registers, 12,300 bytes dense) and theta at lg_k = 10
# (8,220 bytes full) and 11 (16,412 bytes): a theta sketch holds 8·2^lg_k
# bytes of hashes, an hll 0.75·2^p of registers, so no lg_k gives exactly
# hll's bytes; these two bracket them (2/3 and 4/3 of them). Each trial
# hashes its own bigint ids: trial t of overlap number i uses
# (100 i + t)·10^7 + [0, |A ∪ B|), split into A only, both and B only; the
# hash is the randomness, so the ids are the fixed seed and every run gives
# the same numbers. The three parts are sketched once each and united (both
# unions are exact: the union of sketches is the sketch of the union), so
# A = P1 ∪ P2 and B = P2 ∪ P3 cost |A ∪ B| rows per trial.
# Settings: THVH_TRIALS (default 40) trials per overlap, THVH_UNION (default
# 1000000) for |A ∪ B|. About 1.5 to 2 minutes at the defaults (2 cores).
set -euo pipefail

# shellcheck source=test/report/lib.sh
source "$(dirname "$0")/lib.sh"
report_start theta_vs_hll "$@"
trials=${THVH_TRIALS:-40}
union=${THVH_UNION:-1000000}
db=sketch_theta_vs_hll
report_database "$db" sketch

log "sketching $trials trials of 5 overlaps, |A ∪ B| = $union"
q >/dev/null <<SQL
-- one row per trial: |A ∪ B| = n, |A ∩ B| = shared, |A| = |B| = (n + shared) / 2
CREATE TABLE trials AS
SELECT j, i, t AS trial, $union::bigint AS n, round(j * $union)::bigint AS shared,
       ($union::bigint - round(j * $union)::bigint) / 2 AS only_one,
       (100 * i + t) * 10000000::bigint AS base
FROM unnest('{0.5, 0.2, 0.1, 0.05, 0.01}'::float8[]) WITH ORDINALITY AS o(j, i),
     generate_series(1, $trials) AS t;

-- each part once: 1 = A only, 2 = both, 3 = B only
CREATE TABLE parts AS
SELECT j, trial, part, hll_agg(id, 14) AS h, theta_agg(id, 10) AS t10, theta_agg(id, 11) AS t11
FROM trials,
     LATERAL (SELECT base + g AS id,
                     CASE WHEN g < only_one THEN 1 WHEN g < only_one + shared THEN 2 ELSE 3 END AS part
              FROM generate_series(0::bigint, n - 1) g) v
GROUP BY j, trial, part;

CREATE TABLE pairs AS
SELECT t.j, t.trial, t.n, t.shared,
       hll_union(h) FILTER (WHERE part <= 2) AS ha, hll_union(h) FILTER (WHERE part >= 2) AS hb,
       theta_union(t10) FILTER (WHERE part <= 2) AS a10, theta_union(t10) FILTER (WHERE part >= 2) AS b10,
       theta_union(t11) FILTER (WHERE part <= 2) AS a11, theta_union(t11) FILTER (WHERE part >= 2) AS b11
FROM trials t JOIN parts USING (j, trial)
GROUP BY t.j, t.trial, t.n, t.shared;

CREATE TABLE est AS
SELECT j, trial, n, shared,
       hll_intersect_cardinality(ha, hb) AS hll,
       theta_count(a10 & b10) AS theta10, b10x.lower AS lower10, b10x.upper AS upper10,
       theta_count(a11 & b11) AS theta11, b11x.lower AS lower11, b11x.upper AS upper11,
       -- the sketches as stored in a table (pg_column_size: after TOAST)
       pg_column_size(ha) AS hll_stored, pg_column_size(a10) AS theta10_stored,
       pg_column_size(a11) AS theta11_stored
FROM pairs, theta_bounds(a10 & b10) AS b10x, theta_bounds(a11 & b11) AS b11x;

-- long form: one row per trial and sketch
CREATE TABLE errs AS
SELECT j, trial, n, shared, sketch, ord, k_or_m, bytes, stored, estimate, lower, upper,
       (estimate - shared)::float8 / shared AS rel_err
FROM est,
     LATERAL (VALUES ('hll p=14', 1, 16384, (SELECT bytes FROM hll_sizing(14)), hll_stored, hll, NULL::bigint, NULL::bigint),
                     ('theta lg_k=10', 2, 1024, (SELECT bytes FROM theta_sizing(10)), theta10_stored, theta10, lower10, upper10),
                     ('theta lg_k=11', 3, 2048, (SELECT bytes FROM theta_sizing(11)), theta11_stored, theta11, lower11, upper11))
       AS s(sketch, ord, k_or_m, bytes, stored, estimate, lower, upper);
SQL

log "tables"
tsv theta_vs_hll.tsv "
  SELECT j AS overlap, min(n) AS union_size, min(shared) AS intersection, sketch,
         min(bytes) AS bytes, max(stored) AS stored_bytes_max, count(*) AS trials,
         round(avg(rel_err)::numeric, 5) AS bias,
         round(sqrt(avg(rel_err ^ 2))::numeric, 5) AS rms_rel_err,
         round(max(abs(rel_err))::numeric, 5) AS max_abs_rel_err,
         round(CASE WHEN sketch LIKE 'hll%' THEN 1.04 / sqrt(min(k_or_m)) * min(n) / min(shared)
                    ELSE sqrt(((min(n) + min(shared)) / 2.0 / min(k_or_m) - 1) / min(shared)) END::numeric, 5)
           AS expected_rel_err,
         CASE WHEN sketch LIKE 'theta%'
              THEN round(avg((shared BETWEEN lower AND upper)::int)::numeric, 3) END AS bounds_coverage_95
  FROM errs GROUP BY j, sketch, ord ORDER BY j DESC, ord"
tsv theta_vs_hll_trials.tsv "
  SELECT j AS overlap, trial, n AS union_size, shared AS intersection, hll AS hll_p14,
         theta10 AS theta_lg_k10, lower10, upper10, theta11 AS theta_lg_k11, lower11, upper11
  FROM est ORDER BY j DESC, trial"
column -t -s $'\t' "$out/theta_vs_hll.tsv"

if command -v gnuplot >/dev/null 2>&1; then
  log "plot"
  gnuplot -e "outdir='$out'" "$root/test/report/theta_vs_hll.gp"
else
  log "gnuplot is not installed (apt-get install -y gnuplot-nox): no PNG"
fi
psql -X -q -d postgres -c "DROP DATABASE $db" || true
log "done: $out/theta_vs_hll.tsv, $out/theta_vs_hll_trials.tsv$(command -v gnuplot >/dev/null 2>&1 && echo ", $out/theta_vs_hll.png")"
