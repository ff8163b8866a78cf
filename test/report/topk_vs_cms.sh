#!/usr/bin/env bash
# topk beside cms's heavy-hitter candidates: the recall of the true top 10 and
# top 100 of Zipf streams (10^6 events over 10^6 keys, s = 0.8, 1.1, 1.5,
# fixed seeds), for topk at k = 64 and 1024 and for cms_agg's candidate list
# at its defaults (ε 0.001, δ 0.01, 100 candidates) and with 1024
# candidates, in one pass and as the union of 16 parts. Writes, in
# docs/plots/:
#
#   topk_vs_cms.tsv   one row per exponent, sketch and parts: stored bytes,
#                     items reported, recall of the true top 10 / top 100
#                     (tie-aware: a reported key whose true count equals the
#                     n-th largest counts as found)
#   topk_vs_cms.png   the recalls and the bytes (gnuplot)
#
#   bash test/report/topk_vs_cms.sh
#
# The numbers come from the core through the same aggregate-state mechanism
# the SQL aggregates run (test/accuracy/topk_accuracy_test.cpp,
# TopkAccuracy.RecallOfTheTrueTopAgainstCms, which also asserts them), so no
# cluster is needed. Settings: BUILD_DIR (default build/), configured as a
# Release build if it does not exist yet.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
out=$root/docs/plots
mkdir -p "$out"
start=$(date +%s)
log() { echo "topk_vs_cms: [$(( $(date +%s) - start ))s] $*"; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  log "configuring $build"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
log "building accuracy_tests"
cmake --build "$build" -j"$(nproc)" --target accuracy_tests >/dev/null
log "recall of topk and cms on Zipf streams"
SKETCH_REPORT_DIR=$out "$build/accuracy_tests" \
  --gtest_filter='TopkAccuracy.RecallOfTheTrueTopAgainstCms' --gtest_brief=1
if command -v gnuplot >/dev/null 2>&1; then
  log "plot"
  gnuplot -e "outdir='$out'" "$root/test/report/topk_vs_cms.gp"
  log "done: $out/topk_vs_cms.tsv, $out/topk_vs_cms.png"
else
  log "gnuplot is not installed (apt-get install -y gnuplot-nox): no PNG"
  log "done: $out/topk_vs_cms.tsv"
fi
