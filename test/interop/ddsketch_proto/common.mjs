// What produce.mjs and read.mjs share: the quantiles asked (each q * 5000 a
// whole number, so that the JS sketch's rank, floor(q (n - 1)), and
// ddsketch's, ceil(q n) - 1 counted from 0, are the same value) and a small
// deterministic generator (xorshift32), so every run adds the same values.
export const QUANTILES = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1];

let state = 20261203;
export function uniform() {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return (state + 0.5) / 4294967296;
}
