// Core throughput, per element: what the aggregate pays per row on top of
// the executor, and what one union or estimate costs.
//
// Hashes are precomputed where hashing is not the subject, so each benchmark
// measures one thing. The "per_item" counter is the time per element (per
// register for estimate and union).
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "hll_test_util.h"

namespace sketch::hll {
namespace {

constexpr int kP = 14;

// Enough distinct hashes to defeat caching a single register, few enough to
// stay in L2.
const std::vector<uint64_t>& hashes() {
  static const std::vector<uint64_t> h = test::stream(1, 0, 1 << 16);
  return h;
}

void per_item(benchmark::State& state, int64_t items_per_iteration) {
  state.SetItemsProcessed(state.iterations() * items_per_iteration);
  state.counters["per_item"] = benchmark::Counter(
      double(items_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_AddHashDense(benchmark::State& state) {
  test::Sketch sketch = test::Sketch::empty_dense(kP);
  std::vector<uint8_t> buf = sketch.bytes();
  const std::vector<uint64_t>& h = hashes();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(add_hash(buf.data(), h[i]));
    i = (i + 1) & (h.size() - 1);
  }
  per_item(state, 1);
}
BENCHMARK(BM_AddHashDense);

// n distinct values into a working set presized for them (no growth): the
// per-row cost of a small group in a GROUP BY rollup.
void BM_AddHashSparseSet(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  const uint32_t capacity = set_capacity_for(n);
  std::vector<uint8_t> buf(sparse_set_size(capacity));
  const std::vector<uint64_t>& h = hashes();
  for (auto _ : state) {
    write_empty_set(buf.data(), kP, capacity);
    for (uint32_t i = 0; i < n; i++) benchmark::DoNotOptimize(add_hash(buf.data(), h[i]));
  }
  per_item(state, n);
}
BENCHMARK(BM_AddHashSparseSet)->Arg(100)->Arg(1000);

// The same, starting from the smallest set and growing as the wrapper does
// (test::Sketch::add is state::add, the wrapper's own loop).
void BM_AddHashSparseGrowing(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<uint64_t>& h = hashes();
  test::Sketch sketch(kP);
  for (auto _ : state) {
    sketch.reset(kP);
    for (int64_t i = 0; i < n; i++) sketch.add(h[i]);
    benchmark::DoNotOptimize(sketch.bytes().data());
  }
  per_item(state, n);
}
BENCHMARK(BM_AddHashSparseGrowing)->Arg(100)->Arg(1000);

void BM_Hash64_8Bytes(benchmark::State& state) {
  uint64_t value = 0;
  for (auto _ : state) {
    uint8_t bytes[8];
    std::memcpy(bytes, &value, sizeof bytes);
    benchmark::DoNotOptimize(hash64(bytes, sizeof bytes));
    value++;
  }
  per_item(state, 1);
}
BENCHMARK(BM_Hash64_8Bytes);

// A 36-byte string: the text form of a UUID, a typical visitor id.
void BM_Hash64_36Bytes(benchmark::State& state) {
  char text[] = "123e4567-e89b-12d3-a456-426614174000";
  static_assert(sizeof text - 1 == 36);
  uint32_t counter = 0;
  for (auto _ : state) {
    std::memcpy(text, &counter, sizeof counter);  // vary the input
    benchmark::DoNotOptimize(hash64(text, 36));
    counter++;
  }
  per_item(state, 1);
}
BENCHMARK(BM_Hash64_36Bytes);

test::Sketch dense_sketch(uint64_t seed) {
  test::Sketch s(kP);
  s.add_all(test::stream(seed, 0, 200000));
  return s;
}

// One estimate of a dense p = 14 sketch; per_item is per register.
void BM_EstimateDense(benchmark::State& state) {
  const test::Sketch s = dense_sketch(2);
  const View v = s.view();
  for (auto _ : state) benchmark::DoNotOptimize(estimate(v));
  per_item(state, int64_t(register_count(kP)));
}
BENCHMARK(BM_EstimateDense);

// plan_merge + merge of two dense p = 14 sketches, in place into a's
// buffer (the union aggregate's path); per_item is per register.
void BM_UnionDenseDense(benchmark::State& state) {
  const test::Sketch a = dense_sketch(3);
  const test::Sketch b = dense_sketch(4);
  std::vector<uint8_t> buf = a.bytes();
  View va;
  parse(buf.data(), buf.size(), Validation::kStructure, &va);
  const View vb = b.view();
  for (auto _ : state) {
    const MergePlan plan = plan_merge(va, vb);
    merge(buf.data(), va, vb, plan, nullptr);
    benchmark::ClobberMemory();
  }
  per_item(state, int64_t(register_count(kP)));
}
BENCHMARK(BM_UnionDenseDense);

// write_stored of a working set of n entries (gather and sort).
void BM_WriteCanonicalSet(benchmark::State& state) {
  const int64_t n = state.range(0);
  test::Sketch s(kP);
  for (int64_t i = 0; i < n; i++) s.add(hashes()[i]);
  const View v = s.view();
  std::vector<uint8_t> out(stored_size(v));
  for (auto _ : state) {
    write_stored(v, out.data());
    benchmark::ClobberMemory();
  }
  per_item(state, n);
}
BENCHMARK(BM_WriteCanonicalSet)->Arg(100)->Arg(3000);

}  // namespace
}  // namespace sketch::hll

BENCHMARK_MAIN();
