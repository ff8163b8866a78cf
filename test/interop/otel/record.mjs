// Records fixed-seed values into OpenTelemetry JS SDK histograms with the
// exponential-histogram aggregation and writes, as JSON, the raw values of
// each instrument and the SDK's data point in OTLP JSON form (64-bit
// integers as strings, as the OTLP JSON encoding writes them). Run by
// test/interop/otel.sh: node record.mjs <work folder>.
import { writeFileSync } from 'node:fs';
import { AggregationType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';

class Reader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

// A small deterministic generator (xorshift32), so every run records the
// same values.
let state = 20260528;
function uniform() {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return (state + 0.5) / 4294967296;
}

const instruments = {
  // log-normal latencies in ms: the SDK picks a coarse scale for 160 buckets
  latency_ms: () => Math.exp(2 + 1.5 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())),
  // a narrow range: the SDK keeps scale 20, which ddsketch folds to 12
  narrow: () => 1000 + uniform(),
  // exact powers of two (bucket upper bounds) and zeros
  powers: () => (uniform() < 0.1 ? 0 : 2 ** Math.floor(uniform() * 20 - 10)),
};
const sizes = { latency_ms: 160, narrow: 160, powers: 160 };

const reader = new Reader();
const provider = new MeterProvider({
  readers: [reader],
  views: Object.keys(instruments).map((name) => ({
    instrumentName: name,
    aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM, options: { maxSize: sizes[name] } },
  })),
});
const meter = provider.getMeter('sketch-interop');
const values = {};
for (const [name, draw] of Object.entries(instruments)) {
  const h = meter.createHistogram(name);
  values[name] = [];
  for (let i = 0; i < 20000; i++) {
    const v = draw();
    values[name].push(v);
    h.record(v);
  }
}

const { resourceMetrics, errors } = await reader.collect();
if (errors.length) throw new Error(String(errors));
const otlpStore = (s) => ({ offset: s.offset, bucketCounts: s.bucketCounts.map(String) });
const out = [];
for (const scope of resourceMetrics.scopeMetrics) {
  for (const metric of scope.metrics) {
    for (const dp of metric.dataPoints) {
      const h = dp.value;
      out.push({
        name: metric.descriptor.name,
        values: values[metric.descriptor.name],
        point: {
          startTimeUnixNano: String(BigInt(dp.startTime[0]) * 1000000000n + BigInt(dp.startTime[1])),
          timeUnixNano: String(BigInt(dp.endTime[0]) * 1000000000n + BigInt(dp.endTime[1])),
          count: String(h.count), sum: h.sum, scale: h.scale, zeroCount: String(h.zeroCount),
          positive: otlpStore(h.positive), negative: otlpStore(h.negative),
          min: h.min, max: h.max, zeroThreshold: 0,
        },
      });
    }
  }
}
writeFileSync(`${process.argv[2]}/otel.json`, JSON.stringify(out));
for (const o of out) console.log(`note ${o.name}: SDK scale ${o.point.scale}, ${o.point.positive.bucketCounts.length} buckets, count ${o.point.count}`);
await provider.shutdown();
