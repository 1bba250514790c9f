// ELD output file speed (issue 16: the file for 8 days under 100 ms end to end in the API). Times the
// pure part only: writeEldFile and parseEldFile of one driver's deterministic file (every record type,
// about 24 records a day), first call and then the median of many.
// Run: node --import tsx bench/eld-file.ts [days] [runs]     (default 8 days, 500 runs)
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseEldFile, writeEldFile } from '../packages/eld/src/index.ts';
import { driverWeek } from '../packages/eld/src/testing/driver-week.ts';

const days = Number(process.argv[2] ?? 8);
const runs = Number(process.argv[3] ?? 500);

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${at(1).toFixed(2)} ms`;
}

function time<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const result = fn();
  return [result, performance.now() - start];
}

const model = driverWeek({ days });
const records =
  model.events.length +
  model.certifications.length +
  model.malfunctions.length +
  model.loginLogouts.length +
  model.enginePower.length +
  model.unidentifiedEvents.length;

const [first, firstWriteMs] = time(() => writeEldFile(model));
const [, firstParseMs] = time(() => parseEldFile(first.text));
const lines = first.text.split('\r\n').length - 1;

const writes: number[] = [];
const parses: number[] = [];
for (let i = 0; i < runs; i++) {
  const [out, w] = time(() => writeEldFile(model));
  const [, p] = time(() => parseEldFile(out.text));
  writes.push(w);
  parses.push(p);
}

console.log(
  `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`file: ${days} days, ${records} records (${model.events.length} in the event list), ${lines} lines, ${first.text.length} bytes, ${first.fileName}`);
console.log(`first call: write ${firstWriteMs.toFixed(2)} ms, parse ${firstParseMs.toFixed(2)} ms`);
console.log(`write (${runs} runs): ${stats(writes)}`);
console.log(`parse (${runs} runs): ${stats(parses)}`);
