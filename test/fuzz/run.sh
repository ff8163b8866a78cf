#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan + UBSan) and runs each one.
#
#   test/fuzz/run.sh [--replay] [target...]
#
# The targets come from the sanitized build (build-san, the one `make
# sanitize` runs the unit and accuracy tests from: CMakeLists.txt), so the
# core is compiled once for both. FUZZ_PARALLEL (default 1) targets run at
# a time; `make test` runs two, one per core.
#
# For every target (test/fuzz/fuzz_<target>.cpp; all of them by default):
#   1. replay: every kept crashing input in test/fuzz/regressions/<target>/
#      and the seed corpus in test/fuzz/corpus/<target>/ run once. A missing
#      or empty seed corpus fails the target, and so does a missing
#      regressions folder (each is committed with a README); an empty one is
#      reported as "0 kept regressions (skipped)". The replay fails unless
#      libFuzzer reports every one of those inputs executed;
#   2. fuzz (unless --replay): FUZZ_SECONDS (default 60) of libFuzzer,
#      starting from the seed corpus. New interesting inputs go to
#      build-san/corpus/<target>/ (kept between runs, never committed), so
#      the repository's seed corpus is only read.
# Any finding (crash, sanitizer report, FUZZ_CHECK, a timeout of more than
# FUZZ_TIMEOUT seconds on one input, an allocation above the RSS limit) fails
# the run; the input is saved under build-san/artifacts/<target>/. After
# fixing it, copy it into test/fuzz/regressions/<target>/ so that every later
# run (and ctest's replay_<target>) replays it.
set -euo pipefail
cd "$(dirname "$0")/../.."

replay_only=0
if [ "${1:-}" = "--replay" ]; then replay_only=1; shift; fi

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
FUZZ_PARALLEL=${FUZZ_PARALLEL:-1}
BUILD=${FUZZ_BUILD:-build-san}
CLANGXX=${CLANGXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$CLANGXX" ]; then
  echo "fuzz: clang++-14 not found (make deps installs clang-14 and libclang-rt-14-dev)" >&2
  exit 1
fi

cmake -S . -B "$BUILD" -DCMAKE_CXX_COMPILER="$CLANGXX" -DSKETCH_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"${FUZZ_JOBS:-2}"

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for src in test/fuzz/fuzz_*.cpp; do
    name=$(basename "$src" .cpp)
    targets+=("${name#fuzz_}")
  done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

results=$BUILD/fuzz-results
rm -rf "$results"
mkdir -p "$results"

# run_target <target>: replay, then fuzz; writes its summary line to
# $results/<target>.ok or $results/<target>.failed.
run_target() {
  local target=$1
  local bin=$BUILD/fuzz_$target
  local seeds=test/fuzz/corpus/$target
  local regressions=test/fuzz/regressions/$target
  local work=$BUILD/corpus/$target
  local artifacts=$BUILD/artifacts/$target
  local log=$BUILD/$target.log
  local kept seed_files executed line dict execs rate cov
  mkdir -p "$work" "$artifacts"
  fail() { echo "$target: $1" >"$results/$target.failed"; }

  # 1. Replay kept regressions and the seed corpus, one run per file. With
  # no file argument libFuzzer would fuzz instead, without a time limit: a
  # replay with no seed fails here, before it runs.
  if [ ! -x "$bin" ]; then
    echo "fuzz: $target: no libFuzzer binary $bin" >&2
    fail "replay FAILED: not built"; return
  fi
  if [ ! -d "$seeds" ]; then
    echo "fuzz: $target: seed corpus $seeds is missing" >&2
    fail "replay FAILED: no seed corpus $seeds"; return
  fi
  if [ ! -d "$regressions" ]; then
    echo "fuzz: $target: $regressions is missing (every target's folder is committed with a README, even with no inputs)" >&2
    fail "replay FAILED: no regressions folder $regressions"; return
  fi
  mapfile -t kept < <(find "$regressions" -maxdepth 1 -type f ! -name '.*' ! -name 'README*' | sort)
  mapfile -t seed_files < <(find "$seeds" -maxdepth 1 -type f ! -name '.*' ! -name 'README*' | sort)
  if [ ${#seed_files[@]} -eq 0 ]; then
    echo "fuzz: $target: seed corpus $seeds holds no input" >&2
    fail "replay FAILED: empty seed corpus $seeds"; return
  fi
  if ! "$bin" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
        "${kept[@]}" "${seed_files[@]}" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz: $target: a kept regression or seed input fails (log: $log)" >&2
    fail "replay FAILED"; return
  fi
  executed=$(grep -c '^Executed ' "$log" || true)
  if [ "$executed" -ne $((${#kept[@]} + ${#seed_files[@]})) ]; then
    echo "fuzz: $target: libFuzzer executed $executed of the $((${#kept[@]} + ${#seed_files[@]})) replay inputs (log: $log)" >&2
    fail "replay FAILED: $executed of $((${#kept[@]} + ${#seed_files[@]})) inputs executed"; return
  fi
  if [ ${#kept[@]} -eq 0 ]; then
    line="$target: 0 kept regressions (skipped); replayed ${#seed_files[@]} seeds"
  else
    line="$target: replayed ${#kept[@]} kept regressions + ${#seed_files[@]} seeds"
  fi
  if [ $replay_only -eq 1 ]; then
    echo "$line" >"$results/$target.ok"; return
  fi

  # 2. Fuzz.
  dict=()
  [ -f "test/fuzz/$target.dict" ] && dict=(-dict="test/fuzz/$target.dict")
  if "$bin" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
       -rss_limit_mb="$FUZZ_RSS_MB" -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    echo "$line; fuzzed ${FUZZ_SECONDS}s: ${execs:-?} executions (${rate:-?}/s), $cov, corpus $(find "$work" -type f | wc -l) files, no findings" >"$results/$target.ok"
  else
    grep -E '^(==[0-9]+==ERROR|SUMMARY|FUZZ_CHECK|.*runtime error|Test unit written)' "$log" >&2 || true
    tail -n 60 "$log" >&2
    fail "FINDING after fuzzing (inputs in $artifacts/, log $log)"
  fi
}

# At most FUZZ_PARALLEL targets at once; each writes its own files.
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$FUZZ_PARALLEL" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait

echo "---- fuzz summary ----"
passed=0
failed=0
for target in "${targets[@]}"; do
  if [ -f "$results/$target.ok" ] && [ ! -f "$results/$target.failed" ]; then
    cat "$results/$target.ok"
    passed=$((passed + 1))
  else
    cat "$results/$target.failed" 2>/dev/null || echo "$target: FAILED (no result)"
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
