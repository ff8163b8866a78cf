#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan + UBSan) and runs each one.
#
#   test/fuzz/run.sh [--replay] [target...]
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
#      build-fuzz/corpus/<target>/ (kept between runs, never committed), so
#      the repository's seed corpus is only read.
# Any finding (crash, sanitizer report, FUZZ_CHECK, a timeout of more than
# FUZZ_TIMEOUT seconds on one input, an allocation above the RSS limit) fails
# the run; the input is saved under build-fuzz/artifacts/<target>/. After
# fixing it, copy it into test/fuzz/regressions/<target>/ so that every later
# run (and ctest's replay_<target>) replays it.
set -euo pipefail
cd "$(dirname "$0")/../.."

replay_only=0
if [ "${1:-}" = "--replay" ]; then replay_only=1; shift; fi

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
BUILD=${FUZZ_BUILD:-build-fuzz}
CLANGXX=${CLANGXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$CLANGXX" ]; then
  echo "fuzz: clang++-14 not found (make deps installs clang-14 and libclang-rt-14-dev)" >&2
  exit 1
fi

cmake -S . -B "$BUILD" -DCMAKE_CXX_COMPILER="$CLANGXX" -DSKETCH_FUZZ=ON \
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

summary=()
status=0
for target in "${targets[@]}"; do
  bin=$BUILD/fuzz_$target
  seeds=test/fuzz/corpus/$target
  regressions=test/fuzz/regressions/$target
  work=$BUILD/corpus/$target
  artifacts=$BUILD/artifacts/$target
  mkdir -p "$work" "$artifacts"
  log=$BUILD/$target.log

  # 1. Replay kept regressions and the seed corpus, one run per file. With
  # no file argument libFuzzer would fuzz instead, without a time limit: a
  # replay with no seed fails here, before it runs.
  if [ ! -d "$seeds" ]; then
    echo "fuzz: $target: seed corpus $seeds is missing" >&2
    status=1; summary+=("$target: replay FAILED: no seed corpus $seeds"); continue
  fi
  if [ ! -d "$regressions" ]; then
    echo "fuzz: $target: $regressions is missing (every target's folder is committed with a README, even with no inputs)" >&2
    status=1; summary+=("$target: replay FAILED: no regressions folder $regressions"); continue
  fi
  mapfile -t kept < <(find "$regressions" -maxdepth 1 -type f ! -name '.*' ! -name 'README*' | sort)
  mapfile -t seed_files < <(find "$seeds" -maxdepth 1 -type f ! -name '.*' ! -name 'README*' | sort)
  if [ ${#seed_files[@]} -eq 0 ]; then
    echo "fuzz: $target: seed corpus $seeds holds no input" >&2
    status=1; summary+=("$target: replay FAILED: empty seed corpus $seeds"); continue
  fi
  if ! "$bin" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
        "${kept[@]}" "${seed_files[@]}" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz: $target: a kept regression or seed input fails (log: $log)" >&2
    status=1
    summary+=("$target: replay FAILED")
    continue
  fi
  executed=$(grep -c '^Executed ' "$log" || true)
  if [ "$executed" -ne $((${#kept[@]} + ${#seed_files[@]})) ]; then
    echo "fuzz: $target: libFuzzer executed $executed of the $((${#kept[@]} + ${#seed_files[@]})) replay inputs (log: $log)" >&2
    status=1
    summary+=("$target: replay FAILED: $executed of $((${#kept[@]} + ${#seed_files[@]})) inputs executed")
    continue
  fi
  if [ ${#kept[@]} -eq 0 ]; then
    line="$target: 0 kept regressions (skipped); replayed ${#seed_files[@]} seeds"
  else
    line="$target: replayed ${#kept[@]} kept regressions + ${#seed_files[@]} seeds"
  fi
  if [ $replay_only -eq 1 ]; then
    summary+=("$line")
    continue
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
    summary+=("$line; fuzzed ${FUZZ_SECONDS}s: ${execs:-?} executions (${rate:-?}/s), $cov, corpus $(find "$work" -type f | wc -l) files, no findings")
  else
    status=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|FUZZ_CHECK|.*runtime error|Test unit written)' "$log" >&2 || true
    tail -n 60 "$log" >&2
    summary+=("$target: FINDING after fuzzing (inputs in $artifacts/, log $log)")
  fi
done

echo "---- fuzz summary ----"
printf '%s\n' "${summary[@]}"
exit $status
