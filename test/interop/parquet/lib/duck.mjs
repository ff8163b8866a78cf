// DuckDB as the Parquet writer and reader: it writes a split-block Bloom
// filter for each dictionary-encoded column chunk, and its reader's own
// answer for a value is parquet_bloom_probe(file, column, value), whose
// bloom_filter_excludes is TRUE when the filter rules the value out.
import { DuckDBInstance } from '@duckdb/node-api';

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

// The typed DuckDB value of one line of text (see types.mjs).
const literal = (t, text) => (t.duckExpr
  ? t.duckExpr.replace('v', sqlString(text))
  : `CAST(${sqlString(text)} AS ${t.duck})`);

export async function connect() {
  // One thread: each probe is a tiny query, and on a busy two-core machine
  // DuckDB's worker threads cost more than they bring.
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  return db.connect();
}

// Writes `file` with one column v holding every member twice (so that DuckDB
// dictionary-encodes it, which is when it writes a filter), in one row group,
// its filter sized for a false-positive ratio of `fpp`.
export async function writeFile(con, t, membersFile, file, fpp) {
  await con.run(`
    COPY (SELECT ${t.duckExpr ? t.duckExpr : `CAST(v AS ${t.duck})`} AS v
          FROM read_csv(${sqlString(membersFile)}, columns = {'v': 'VARCHAR'}, header = false,
                        delim = '\t', quote = '', escape = '', auto_detect = false),
               range(2))
    TO ${sqlString(file)} (FORMAT parquet, BLOOM_FILTER_FALSE_POSITIVE_RATIO ${fpp},
                          DICTIONARY_SIZE_LIMIT 100000000, ROW_GROUP_SIZE 100000000)`);
  const rows = (await con.runAndReadAll(`SELECT count(*) FROM ${sqlString(file)}`)).getRows();
  return Number(rows[0][0]);
}

// The reader's answers for `values`: true when the value may be in the
// column chunk (not excluded). Probes go 500 to a query (a UNION ALL of
// table-function calls: the probe takes only literals).
export async function probe(con, t, file, values) {
  const out = new Array(values.length);
  for (let s = 0; s < values.length; s += 500) {
    const part = values.slice(s, s + 500).map((v, i) =>
      `SELECT ${s + i} AS k, bloom_filter_excludes AS x FROM parquet_bloom_probe(${sqlString(file)}, 'v', ${literal(t, v)})`);
    const rows = (await con.runAndReadAll(part.join(' UNION ALL '))).getRows();
    if (rows.length !== part.length) throw new Error(`${file}: ${rows.length} probe rows for ${part.length} values`);
    for (const [k, x] of rows) out[k] = !x;
  }
  return out;
}
