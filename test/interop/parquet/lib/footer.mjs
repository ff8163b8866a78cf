// Reads and rewrites the footer of a Parquet file (the Thrift FileMetaData
// after the data, then its 4-byte length and "PAR1"), with the Thrift codec
// that @dsnp/parquetjs ships. We need it for two things the readers do not
// offer: the stored bytes of a column chunk's Bloom filter, and a file whose
// filter is replaced by one that sketch built.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const util = require('@dsnp/parquetjs/dist/lib/util.js');
const T = require('@dsnp/parquetjs/dist/gen-nodejs/parquet_types.js');

// Thrift i64 values come back as node-int64 objects: 8 big-endian bytes.
const i64 = (x) => (x == null ? null : Number(x.buffer.readBigInt64BE(x.offset)));

export function readFooter(file) {
  const buf = fs.readFileSync(file);
  if (buf.subarray(buf.length - 4).toString() !== 'PAR1') throw new Error(`${file}: not a Parquet file`);
  const len = buf.readUInt32LE(buf.length - 8);
  const start = buf.length - 8 - len;
  const meta = new T.FileMetaData();
  util.decodeThrift(meta, buf, start);
  return { buf, start, meta };
}

// The column chunks of the file that carry a Bloom filter: where it starts.
// (The writers we use put header and bitset together, and the header's
// numBytes gives the end; @dsnp's Thrift schema has no bloom_filter_length.)
export function filterChunks(meta) {
  const out = [];
  meta.row_groups.forEach((rg, g) => rg.columns.forEach((c) => {
    const off = i64(c.meta_data.bloom_filter_offset);
    if (off != null) out.push({ rowGroup: g, column: c.meta_data.path_in_schema.join('.'), offset: off, chunk: c });
  }));
  return out;
}

// The stored filter bytes (header + bitset) of one chunk: the header is
// decoded with the same Thrift codec to learn its length and numBytes.
export function storedFilter(buf, offset) {
  const h = new T.BloomFilterHeader();
  const headerLength = util.decodeThrift(h, buf, offset);
  return buf.subarray(offset, offset + headerLength + h.numBytes);
}

// A copy of the file in which one chunk's filter is `stored` (header +
// bitset), appended after the data and pointed at by bloom_filter_offset;
// the old filter stays where it was, unreferenced.
export function withFilter(file, out, column, stored) {
  const { buf, start, meta } = readFooter(file);
  const chunks = filterChunks(meta).filter((c) => c.column === column);
  if (chunks.length !== 1) throw new Error(`${file}: ${chunks.length} filters for ${column}, expected 1`);
  const at = start;                                        // the new filter takes the old footer's place
  chunks[0].chunk.meta_data.bloom_filter_offset.buffer.writeBigInt64BE(BigInt(at), chunks[0].chunk.meta_data.bloom_filter_offset.offset);
  const footer = util.serializeThrift(meta);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4);
  fs.writeFileSync(out, Buffer.concat([buf.subarray(0, start), stored, footer, tail]));
}
