// A fixed-seed generator (SplitMix64) so that every run, on every machine,
// tests the same values: a mismatch found once can be found again.
export function splitmix64(seed) {
  let s = BigInt.asUintN(64, BigInt(seed));
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

// A uniform integer in [0, n) for small n (n < 2^32): the bias of the modulo
// is below 2^-32 and does not matter for a test set.
export function below(next, n) {
  return Number(next() % BigInt(n));
}
