// Order statistics and sorting over values read through accessors, for
// sketches whose arrays live in unaligned byte buffers and must not
// allocate: topk's purge threshold, theta's (k+1)-th smallest hash, the
// sorted candidate lists of cms and topk.
#pragma once

#include <cstdint>

namespace sketch {

// The r-th largest (kLargest) or smallest (1-based) of the nonzero values
// among n read through value(i), at least r of them: a most-significant-
// byte-first radix select with a 256-entry histogram on the stack, O(n), no
// scratch memory and no input that makes it slow. It starts at the top byte
// of the largest value (counters of a few million need three passes, not
// eight), and once a single candidate is left one more pass fetches it
// (hashes spread evenly, so a table of thousands needs three or four).
template <bool kLargest, class Value>
uint64_t radix_select(uint32_t n, uint32_t r, Value value) {
  uint64_t any = 0;
  for (uint32_t i = 0; i < n; i++) any |= value(i);
  int top = 0;
  while (top < 56 && (any >> (top + 8)) != 0) top += 8;
  uint64_t prefix = 0, mask = top == 56 ? 0 : ~uint64_t{0} << (top + 8);
  for (int shift = top; shift >= 0; shift -= 8) {
    uint32_t histogram[256] = {};
    for (uint32_t i = 0; i < n; i++) {
      // Branch-free: which values are candidates (or empty) comes at random.
      const uint64_t x = value(i);
      histogram[(x >> shift) & 0xff] += (x != 0) & ((x & mask) == prefix);
    }
    uint32_t b = kLargest ? 255 : 0;
    if (kLargest) {
      while (b > 0 && histogram[b] < r) r -= histogram[b--];
    } else {
      while (b < 255 && histogram[b] < r) r -= histogram[b++];
    }
    prefix |= uint64_t{b} << shift;
    mask |= uint64_t{0xff} << shift;
    if (histogram[b] == 1 && shift > 0) {
      // The only candidate left: the one value under this prefix.
      for (uint32_t i = 0; i < n; i++) {
        const uint64_t x = value(i);
        if (x != 0 && (x & mask) == prefix) return x;
      }
    }
  }
  return prefix;
}

// In-place heapsort of n items through caller accessors: less(i, j)
// compares items i and j, swap(i, j) exchanges them. O(n log n) whatever
// the input.
template <class Less, class Swap>
void heap_sort(uint32_t n, Less less, Swap swap) {
  auto sift = [&](uint32_t root, uint32_t end) {
    for (;;) {
      uint32_t child = 2 * root + 1;
      if (child >= end) return;
      if (child + 1 < end && less(child, child + 1)) child++;
      if (!less(root, child)) return;
      swap(root, child);
      root = child;
    }
  };
  if (n < 2) return;
  for (uint32_t i = n / 2; i-- > 0;) sift(i, n);
  for (uint32_t end = n - 1; end > 0; end--) {
    swap(0, end);
    sift(0, end);
  }
}

}  // namespace sketch
