// One line per check, read and counted by test/interop/parquet.sh:
//   ok <name>: <detail>        not ok <name>: <detail>       note <name>: <detail>
// ("note" lines are facts the run measured that are not pass/fail checks).
export const ok = (name, detail) => console.log(`ok ${name}: ${detail}`);
export const notOk = (name, detail) => console.log(`not ok ${name}: ${detail}`);
export const note = (name, detail) => console.log(`note ${name}: ${detail}`);
export const check = (pass, name, detail) => (pass ? ok : notOk)(name, detail);

// How two answer lists (true = "may contain") differ, with the first few values.
export function compareAnswers(values, mine, theirs) {
  const diffs = [];
  values.forEach((v, i) => { if (mine[i] !== theirs[i]) diffs.push(i); });
  const shown = diffs.slice(0, 5).map((i) => `${JSON.stringify(values[i])} ${mine[i]}/${theirs[i]}`);
  return { count: diffs.length, indexes: diffs, shown: shown.join(', ') };
}
