// Decodes ddsketch_to_ddsketch_proto's output with DataDog's JS DDSketch
// and writes the JS sketch's answers (count, quantiles) as JSON. Run by
// test/interop/ddsketch_proto.sh: node read.mjs <work folder> (reads
// export.json: [{name, proto (hex)}], writes js_read.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { DDSketch } from '@datadog/sketches-js';
import { QUANTILES } from './common.mjs';

const exported = JSON.parse(readFileSync(`${process.argv[2]}/export.json`, 'utf8'));
const out = [];
for (const { name, proto } of exported) {
  const sketch = DDSketch.fromProto(Uint8Array.from(Buffer.from(proto, 'hex')));
  const quantiles = {};
  for (const q of QUANTILES) quantiles[q] = sketch.getValueAtQuantile(q);
  out.push({ name, count: sketch.count, zero_count: sketch.zeroCount, gamma: sketch.mapping.gamma, quantiles });
}
writeFileSync(`${process.argv[2]}/js_read.json`, JSON.stringify(out));
