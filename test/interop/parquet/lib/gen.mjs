// Writes, for every type, the member values and the non-member values (one
// per line, distinct, members and non-members disjoint) into a work folder:
//   <dir>/<type>.members   <dir>/<type>.others
// The seed depends only on the type, so each run tests the same values.
import fs from 'node:fs';
import path from 'node:path';
import { splitmix64 } from './rng.mjs';
import { TYPES, membersOf, othersOf } from './types.mjs';

export function generate(dir) {
  TYPES.forEach((t, i) => {
    const next = splitmix64(0x5eed0000 + i);
    const seen = new Set();
    const take = (count) => {
      const out = [];
      while (out.length < count) {
        const v = t.gen(next);
        if (!seen.has(v)) { seen.add(v); out.push(v); }
      }
      return out;
    };
    const members = take(membersOf(t));
    const others = take(othersOf(t));
    fs.writeFileSync(path.join(dir, `${t.name}.members`), members.join('\n') + '\n');
    fs.writeFileSync(path.join(dir, `${t.name}.others`), others.join('\n') + '\n');
  });
}
