// The files that pass between the Node side and PostgreSQL, in one work folder.
import fs from 'node:fs';
import path from 'node:path';

export const at = (dir, type, what) => path.join(dir, `${type}.${what}`);
export const readLines = (file) => fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
export const writeLines = (file, lines) => fs.writeFileSync(file, lines.join('\n') + '\n');
// Answers as COPY writes booleans: t or f.
export const readAnswers = (file) => readLines(file).map((x) => {
  if (x !== 't' && x !== 'f') throw new Error(`${file}: answer ${JSON.stringify(x)}`);
  return x === 't';
});
export const writeAnswers = (file, answers) => writeLines(file, answers.map((a) => (a ? 't' : 'f')));
