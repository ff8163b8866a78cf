// Step 1 of test/interop/parquet.sh (Parquet -> sketch), run before psql:
//   node write_parquet.mjs <workdir>
// For every type of lib/types.mjs: writes the fixed-seed members and
// non-members, has DuckDB write <type>.parquet (the members, with a
// split-block Bloom filter), and leaves for PostgreSQL
//   <type>.pq.hex      the column chunk's filter exactly as stored in the file
//                      (Thrift header + bitset, from bloom_filter_offset), in hex
//   <type>.pq.answers  DuckDB's reader's answer for each non-member (t = may contain)
//   <type>.ref.answers our spec referee's answer for each non-member
// Where DuckDB's reader cannot probe a type (see DUCK_PROBE_BROKEN), the
// PostgreSQL side compares with the referee instead, and says so.
import fs from 'node:fs';
import { generate } from './lib/gen.mjs';
import { TYPES } from './lib/types.mjs';
import * as duck from './lib/duck.mjs';
import { readFooter, filterChunks, storedFilter } from './lib/footer.mjs';
import * as sbbf from './lib/sbbf.mjs';
import { plain } from './lib/plain.mjs';
import { at, readLines, writeAnswers, writeLines } from './lib/files.mjs';
import { check, compareAnswers, note } from './lib/report.mjs';
import { DUCK_PROBE_BROKEN } from './lib/duck_limits.mjs';
import { dsnpWriterFacts } from './lib/dsnp.mjs';

// DuckDB's ratio: its filters come out at 13-26 bits per distinct value at
// 0.05, still few false positives; 0.2 gives enough of them (hundreds in
// 100,000 non-members) for a value-by-value comparison to mean something.
const FPP = 0.2;

const dir = process.argv[2];
if (!dir) throw new Error('usage: node write_parquet.mjs <workdir>');
generate(dir);
const con = await duck.connect();
const STEP = 'parquet->sketch (DuckDB writes)';
for (const t of TYPES) {
  try {
    await oneType(t);
  } catch (e) {
    check(false, `${t.name} ${STEP}`, `stopped: ${e.message}`);
  }
}

async function oneType(t) {
  const file = at(dir, t.name, 'parquet');
  const members = readLines(at(dir, t.name, 'members'));
  const others = readLines(at(dir, t.name, 'others'));
  const rows = await duck.writeFile(con, t, at(dir, t.name, 'members'), file, FPP);
  check(rows === 2 * members.length, `${t.name} duckdb-writes`, `${rows} rows in ${file}`);
  const { buf, meta } = readFooter(file);
  const chunks = filterChunks(meta);
  if (chunks.length !== 1) {
    check(false, `${t.name} duckdb-filter`, `${chunks.length} column chunks with a Bloom filter, expected 1`);
    return;
  }
  const stored = storedFilter(buf, chunks[0].offset);
  writeLines(at(dir, t.name, 'pq.hex'), [stored.toString('hex')]);
  const { headerLength, bitset } = sbbf.parse(stored);
  note(`${t.name} duckdb-filter`, `offset ${chunks[0].offset}, header ${headerLength} B ${stored.subarray(0, headerLength).toString('hex')}, bitset ${bitset.length} B`);

  // The referee must find every member: that DuckDB hashes the PLAIN encoding.
  const missed = members.filter((v) => !sbbf.check(bitset, sbbf.hash(plain(t.name, v)))).length;
  check(missed === 0, `${t.name} duckdb-filter-follows-spec`, `${missed} of ${members.length} members missing by the spec referee`);
  const ref = others.map((v) => sbbf.check(bitset, sbbf.hash(plain(t.name, v))));
  writeAnswers(at(dir, t.name, 'ref.answers'), ref);
  if (DUCK_PROBE_BROKEN.has(t.name)) {
    note(`${t.name} duckdb-reader`, 'not probed: DuckDB\'s parquet_bloom_probe cannot probe this type (PostgreSQL compares with the referee)');
    writeAnswers(at(dir, t.name, 'pq.answers'), ref);
    return;
  }
  const answers = await duck.probe(con, t, file, others);
  writeAnswers(at(dir, t.name, 'pq.answers'), answers);
  const d = compareAnswers(others, ref, answers);
  note(`${t.name} duckdb-reader`, `${answers.filter(Boolean).length} of ${others.length} non-members "may contain" (referee: ${ref.filter(Boolean).length}, ${d.count} differ${d.count ? ': ' + d.shown : ''})`);
}
await dsnpWriterFacts(dir).catch((e) => note('@dsnp/parquetjs writer', `not measured: ${e.message}`));
fs.writeFileSync(at(dir, 'all', 'types'), TYPES.map((t) => [t.name, t.pg, t.physical, t.pgExpr || `v::${t.pg}`].join('\t')).join('\n') + '\n');
