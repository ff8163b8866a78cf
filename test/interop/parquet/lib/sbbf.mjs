// Our own reading of the Parquet split-block Bloom filter spec, written from
// the spec text (blocks of eight 32-bit words, XXH64 seed 0, block index from
// the hash's upper half, one bit per word from the lower half times a salt).
// It is the referee of the harness: the test compares sketch with DuckDB and
// @dsnp/parquetjs, and on a mismatch this says which side departs from the spec.
import xxhash from 'xxhash-wasm';

const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
              0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];

const { h64Raw } = await xxhash();

export const hash = (bytes) => h64Raw(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), 0n);

// The word bits of one hash: Math.imul keeps the low 32 bits of the product,
// as the spec's uint32 arithmetic does.
export function maskWords(h) {
  const lo = Number(h & 0xffffffffn) | 0;
  return SALT.map((s) => 1 << (Math.imul(lo, s) >>> 27));
}

function blockOf(h, numBlocks) {
  return Number(((h >> 32n) * BigInt(numBlocks)) >> 32n);
}

// bitset: a Buffer of numBlocks * 32 bytes, words little-endian.
export function check(bitset, h) {
  const base = blockOf(h, bitset.length / 32) * 32;
  return maskWords(h).every((m, i) => ((bitset.readUInt32LE(base + 4 * i) & m) >>> 0) === (m >>> 0));
}

export function insert(bitset, h) {
  const base = blockOf(h, bitset.length / 32) * 32;
  maskWords(h).forEach((m, i) => bitset.writeUInt32LE((bitset.readUInt32LE(base + 4 * i) | m) >>> 0, base + 4 * i));
}

// The BloomFilterHeader as DuckDB, parquet-mr and arrow-rs write it (Thrift
// compact): numBytes, then the unions BLOCK, XXHASH, UNCOMPRESSED.
export function header(numBytes) {
  const out = [0x15];
  let z = numBytes * 2;                                    // zigzag of a non-negative i32
  while (z >= 0x80) { out.push((z & 0x7f) | 0x80); z = Math.floor(z / 128); }
  out.push(z);
  out.push(0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00);
  return Buffer.from(out);
}

// Splits stored filter bytes (header + bitset) into the two, checking the
// header is exactly the conformant one for its numBytes.
export function parse(stored) {
  for (let hlen = 15; hlen <= 18; hlen++) {
    const numBytes = stored.length - hlen;
    if (numBytes > 0 && header(numBytes).equals(stored.subarray(0, hlen))) {
      return { headerLength: hlen, bitset: stored.subarray(hlen) };
    }
  }
  throw new Error(`not a conformant header: ${stored.subarray(0, 18).toString('hex')}`);
}
