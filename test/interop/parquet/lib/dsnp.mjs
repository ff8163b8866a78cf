// @dsnp/parquetjs, the Node.js Parquet library the issue names, measured
// rather than trusted. Its 1.8.x bloom code departs from the spec (see
// docs/bloom_parquet.md): it hashes value.toString() (an INT64 42 as the text
// "42"), its filters share one block array (init() fills the block list with
// the same Uint32Array), and its header leaves the three unions empty. What
// can be checked is its filter CLASS reading sketch's bytes:
//   text: SplitBlockBloomFilter.check(string) hashes the UTF-8 bytes, as the
//         spec does for BYTE_ARRAY, so its answers must equal bloom_contains's;
//   int8: its check would hash the decimal text, so we hand it the spec hash
//         (checkHash) and test its block index and bit masks only.
// Its masks are computed in doubles (low half of the hash times a salt, up to
// 2^64, then >>> 27), so for about 22 hashes in a million one word gets a bit
// next to the spec's: an answer that differs for such a value is explained
// (and listed as a note); any other difference fails.
import { createRequire } from 'node:module';
import * as sbbf from './sbbf.mjs';
import { plain } from './plain.mjs';
import { at, readLines, readAnswers } from './files.mjs';
import { check, compareAnswers, note } from './report.mjs';

const require = createRequire(import.meta.url);
const SBBF = require('@dsnp/parquetjs/dist/lib/bloom/sbbf.js').default;
// The Long class the library itself uses (checkHash wants an unsigned Long).
const Long = createRequire(require.resolve('@dsnp/parquetjs'))('long');

// Its from() reads buffer.buffer whole, ignoring byteOffset: give it a Buffer
// that owns its ArrayBuffer.
function load(bitset) {
  const own = new Uint8Array(bitset.length);
  own.set(bitset);
  return SBBF.from(Buffer.from(own.buffer));
}

export async function dsnpChecks(dir) {
  for (const [type, how] of [['text', 'check(string)'], ['int8', 'checkHash(spec hash)']]) {
    try {
      await oneType(dir, type, how);
    } catch (e) {
      check(false, `${type} sketch->@dsnp/parquetjs`, `stopped: ${e.message}`);
    }
  }
}

async function oneType(dir, type, how) {
  {
    const stored = Buffer.from(readLines(at(dir, type, 'sk.hex'))[0], 'hex');
    const filter = load(sbbf.parse(stored).bitset);
    const ask = type === 'text'
      ? async (v) => filter.check(v)
      : async (v) => filter.checkHash(Long.fromString(sbbf.hash(plain(type, v)).toString(16), true, 16));
    const members = readLines(at(dir, type, 'members'));
    const others = readLines(at(dir, type, 'others'));
    const pg = readAnswers(at(dir, type, 'sk.answers'));
    let missed = 0;
    for (const v of members) {
      if (await ask(v)) continue;
      if (dsnpMaskDeviates(type, v)) note(`${type} sketch->@dsnp/parquetjs rounding`, `member ${JSON.stringify(v)} missed where its double-precision mask departs from the spec`);
      else missed++;
    }
    check(missed === 0, `${type} sketch->@dsnp/parquetjs members`, `${missed} of ${members.length} members not found by its SplitBlockBloomFilter.${how} in sketch's bytes`);
    const answers = [];
    for (const v of others) answers.push(await ask(v));
    const all = compareAnswers(others, pg, answers);
    const explained = all.indexes.filter((i) => dsnpMaskDeviates(type, others[i]));
    if (explained.length) note(`${type} sketch->@dsnp/parquetjs rounding`, `${explained.length} answers differ where its double-precision mask departs from the spec: ${explained.slice(0, 5).map((i) => JSON.stringify(others[i])).join(', ')}`);
    const d = { count: all.count - explained.length, shown: all.shown };
    check(d.count === 0, `${type} sketch->@dsnp/parquetjs non-members`, `${d.count} of ${others.length} answers of its ${how} differ from bloom_contains's${d.count ? ': ' + d.shown : ''}`);
  }
}

// Whether the library's mask for this value's spec hash differs from the spec's.
function dsnpMaskDeviates(type, v) {
  const h = sbbf.hash(plain(type, v));
  const theirs = SBBF.mask(Long.fromString(h.toString(16), true, 16));
  return sbbf.maskWords(h).some((m, i) => (m >>> 0) !== (theirs[i] >>> 0));
}

// What its own writer stores, measured on every run (notes, since these are
// the library's departures from the spec, documented in docs/bloom_parquet.md):
// a file of `count` text values with a filter, its stored header, and whether
// all its blocks are the same bytes.
export async function dsnpWriterFacts(dir, count = 1000) {
  const parquet = require('@dsnp/parquetjs');
  const { readFooter, filterChunks } = await import('./footer.mjs');
  const file = `${dir}/dsnp.parquet`;
  const schema = new parquet.ParquetSchema({ v: { type: 'UTF8' } });
  const writer = await parquet.ParquetWriter.openFile(schema, file, {
    bloomFilters: [{ column: 'v', numDistinct: count, falsePositiveRate: 0.01 }] });
  for (let i = 0; i < count; i++) await writer.appendRow({ v: `value ${i}` });
  await writer.close();
  const { buf, meta } = readFooter(file);
  const [chunk] = filterChunks(meta);
  let at = chunk.offset + 1, z = 0, shift = 0;               // field 1: a zigzag varint
  for (;;) { const b = buf[at++]; z += (b & 0x7f) * 2 ** shift; shift += 7; if (b < 0x80) break; }
  const numBytes = z / 2;
  const head = buf.subarray(chunk.offset, at + 7);             // + its 3 empty unions and stop
  const bits = buf.subarray(at + 7, at + 7 + numBytes);
  let same = true;
  for (let b = 32; b < bits.length; b += 32) same &&= bits.subarray(b, b + 32).equals(bits.subarray(0, 32));
  const ones = [...bits.subarray(0, 32)].reduce((n, x) => n + x.toString(2).replaceAll('0', '').length, 0);
  note('@dsnp/parquetjs writer', `${count} text values: header ${head.toString('hex')} (empty unions), ${numBytes / 32} blocks, ${same ? 'all identical' : 'not all identical'}, ${ones} of 256 bits set in block 0`);
}
