// Step 3 of test/interop/parquet.sh (sketch -> Parquet), run after psql:
//   node write_back.mjs <workdir>
// For every type: takes the filter PostgreSQL built with bloom_agg(...,
// 'split_block') and exported with bloom_to_parquet (<type>.sk.hex), puts it
// into the Parquet file DuckDB wrote for the same members, in place of
// DuckDB's own filter (<type>.sk.parquet: the bytes appended, the column
// chunk's bloom_filter_offset pointing at them), and has DuckDB's reader
// answer for every member (all must be "may contain") and for the non-members,
// value by value against PostgreSQL's bloom_contains (<type>.sk.answers).
import { TYPES, othersOf } from './lib/types.mjs';
import * as duck from './lib/duck.mjs';
import { readFooter, filterChunks, withFilter } from './lib/footer.mjs';
import * as sbbf from './lib/sbbf.mjs';
import { plain } from './lib/plain.mjs';
import { at, readLines, readAnswers } from './lib/files.mjs';
import { check, compareAnswers, note } from './lib/report.mjs';
import { DUCK_PROBE_BROKEN } from './lib/duck_limits.mjs';
import { dsnpChecks } from './lib/dsnp.mjs';

// Reader probes cost ~1 ms each: the non-members probed through DuckDB are
// the first SAMPLE (the spec referee checks all of them).
const SAMPLE = Number(process.env.INTEROP_WRITE_BACK_SAMPLE || 20000);

const dir = process.argv[2];
if (!dir) throw new Error('usage: node write_back.mjs <workdir>');
const con = await duck.connect();
const STEP = 'sketch->parquet';
for (const t of TYPES) {
  try {
    await oneType(t);
  } catch (e) {
    check(false, `${t.name} ${STEP}`, `stopped: ${e.message}`);
  }
}

async function oneType(t) {
  const stored = Buffer.from(readLines(at(dir, t.name, 'sk.hex'))[0], 'hex');
  let parsed;
  try {
    parsed = sbbf.parse(stored);
    ok(t, 'header', `the header is the conformant one for numBytes ${parsed.bitset.length}: ${stored.subarray(0, parsed.headerLength).toString('hex')}`);
  } catch (e) {
    check(false, `${t.name} sketch->parquet header`, e.message);
    return;
  }
  // Same members, same spec: where sketch and DuckDB chose the same size,
  // the two filters must be the same bytes, header and bitset.
  const duckStored = Buffer.from(readLines(at(dir, t.name, 'pq.hex'))[0], 'hex');
  if (duckStored.length === stored.length) {
    check(duckStored.equals(stored), `${t.name} sketch->parquet same-bytes`, `sketch's filter of the members and DuckDB's (both ${stored.length} bytes) are ${duckStored.equals(stored) ? 'byte-identical' : 'DIFFERENT'}`);
  } else {
    note(`${t.name} sketch->parquet same-bytes`, `not comparable: sketch's filter is ${stored.length} bytes, DuckDB's ${duckStored.length}`);
  }
  const members = readLines(at(dir, t.name, 'members'));
  const others = readLines(at(dir, t.name, 'others'));
  const pgAnswers = readAnswers(at(dir, t.name, 'sk.answers'));
  const ref = others.map((v) => sbbf.check(parsed.bitset, sbbf.hash(plain(t.name, v))));
  const r = compareAnswers(others, pgAnswers, ref);
  check(r.count === 0, `${t.name} sketch->parquet spec`, `${r.count} of ${others.length} non-member answers of bloom_contains differ from the spec referee's on the exported bytes (${ref.filter(Boolean).length} false positives)${r.count ? ': ' + r.shown : ''}`);

  const file = at(dir, t.name, 'sk.parquet');
  withFilter(at(dir, t.name, 'parquet'), file, 'v', stored);
  const rows = Number((await con.runAndReadAll(`SELECT count(*) FROM '${file}'`)).getRows()[0][0]);
  const at2 = filterChunks(readFooter(file).meta)[0].offset;
  check(rows === 2 * readLines(at(dir, t.name, 'members')).length, `${t.name} sketch->parquet file`,
        `DuckDB reads the ${rows} rows of ${file}, whose filter is now sketch's, at offset ${at2}`);
  if (DUCK_PROBE_BROKEN.has(t.name)) {
    note(`${t.name} sketch->parquet reader`, 'not probed: DuckDB\'s parquet_bloom_probe cannot probe this type');
    return;
  }
  // Control: with an all-zero bitset in its place, the reader must exclude
  // members, or the file's filter was not the one it read.
  const empty = at(dir, t.name, 'zero.parquet');
  withFilter(at(dir, t.name, 'parquet'), empty, 'v', Buffer.concat([stored.subarray(0, parsed.headerLength), Buffer.alloc(parsed.bitset.length)]));
  const control = await duck.probe(con, t, empty, members.slice(0, 20));
  check(control.every((x) => !x), `${t.name} sketch->parquet control`, `with a zeroed bitset spliced in, the reader excludes ${control.filter((x) => !x).length} of ${control.length} members`);
  const found = await duck.probe(con, t, file, members);
  const missed = found.filter((x) => !x).length;
  check(missed === 0, `${t.name} sketch->parquet members`, `${missed} of ${members.length} members excluded by the Parquet reader`);
  const sample = others.slice(0, Math.min(SAMPLE, othersOf(t)));
  const answers = await duck.probe(con, t, file, sample);
  const d = compareAnswers(sample, pgAnswers, answers);
  check(d.count === 0, `${t.name} sketch->parquet non-members`, `${d.count} of ${sample.length} answers of the Parquet reader differ from bloom_contains's (${answers.filter(Boolean).length} "may contain" in the reader)${d.count ? ': ' + d.shown : ''}`);
}
await dsnpChecks(dir);

function ok(t, what, detail) { check(true, `${t.name} sketch->parquet ${what}`, detail); }
