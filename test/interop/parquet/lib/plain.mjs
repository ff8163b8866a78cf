// The Parquet PLAIN encoding of one value given as its line of text (see
// types.mjs): the bytes the split-block Bloom filter spec hashes. Used by the
// harness's own reference checker (sbbf.mjs), which tells, when sketch and a
// Parquet implementation disagree, which of the two follows the spec.
const DAY_MS = 86400000;

function le64(big) { const b = Buffer.alloc(8); b.writeBigInt64LE(big); return b; }
function le32(n) { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; }

function epochDays(isoDate) { return Math.round(Date.parse(isoDate + 'T00:00:00Z') / DAY_MS); }

export function plain(type, text) {
  switch (type) {
    case 'int8': return le64(BigInt(text));
    case 'int4': case 'int2': return le32(Number(text));
    case 'float8': { const b = Buffer.alloc(8); b.writeDoubleLE(Number(text)); return b; }
    case 'float4': { const b = Buffer.alloc(4); b.writeFloatLE(Number(text)); return b; }
    case 'text': return Buffer.from(text, 'utf8');        // BYTE_ARRAY: no length prefix
    case 'bytea': return Buffer.from(text, 'hex');
    case 'uuid': return Buffer.from(text.replaceAll('-', ''), 'hex');  // big-endian, as printed
    case 'date': return le32(epochDays(text));
    case 'timestamp': {                                    // micros since 1970, no time zone
      const [d, t] = text.split(' ');
      const [hms, frac] = t.split('.');
      const [h, m, s] = hms.split(':').map(Number);
      const us = BigInt(epochDays(d)) * 86400000000n + BigInt((h * 3600 + m * 60 + s)) * 1000000n + BigInt(frac);
      return le64(us);
    }
    default: throw new Error(`no plain encoding for ${type}`);
  }
}
