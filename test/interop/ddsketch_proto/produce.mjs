// Adds fixed-seed values to DataDog's JS DDSketch (@datadog/sketches-js)
// and writes, as JSON, the values, each sketch's protobuf (hex) and the JS
// sketch's own answers (count, min, max, quantiles). Run by
// test/interop/ddsketch_proto.sh: node produce.mjs <work folder>.
import { writeFileSync } from 'node:fs';
import { DDSketch } from '@datadog/sketches-js';
import { QUANTILES, uniform } from './common.mjs';

// 4000 log-normal magnitudes (about 1e-3 .. 1e4), a fifth of them negative,
// and 200 exact zeros: both stores and the zero count are used.
const values = [];
for (let i = 0; i < 4800; i++) {
  const normal = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const magnitude = Math.exp(1 + 2 * normal);
  values.push(uniform() < 0.2 ? -magnitude : magnitude);
}
for (let i = 0; i < 200; i++) values.push(0);

// The library's default accuracy (gamma 1.0202: re-bucketed on import), and
// ddsketch's scale 6 and 8 accuracies (gamma 2^(1/64), 2^(1/256): exact).
const alphaOfScale = (s) => { const g = 2 ** (2 ** -s); return (g - 1) / (g + 1); };
const sketches = [
  { name: 'default', relativeAccuracy: 0.01 },
  { name: 'scale6', relativeAccuracy: alphaOfScale(6) },
  { name: 'scale8', relativeAccuracy: alphaOfScale(8) },
];

const out = { values: values.map(String), sketches: [] };
for (const { name, relativeAccuracy } of sketches) {
  const sketch = new DDSketch({ relativeAccuracy });
  for (const v of values) sketch.accept(v);
  const quantiles = {};
  for (const q of QUANTILES) quantiles[q] = sketch.getValueAtQuantile(q);
  out.sketches.push({
    name, relative_accuracy: relativeAccuracy, gamma: sketch.mapping.gamma,
    proto: Buffer.from(sketch.toProto()).toString('hex'),
    count: sketch.count, min: sketch.min, max: sketch.max, quantiles,
  });
  console.log(`note ${name}: gamma ${sketch.mapping.gamma}, ${sketch.toProto().length} protobuf bytes`);
}
writeFileSync(`${process.argv[2]}/js.json`, JSON.stringify(out));
