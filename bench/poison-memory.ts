// The API's memory around a burst of poisoned fixes (issue 43: the soak's heap rose by ~150 MB for
// ~90 s after its "poison" fault). Starts its own server (PGlite unless DATABASE_URL) on free ports,
// sets up the soak's second organization (and, with --devices, a soak fleet sending in the
// background), sends bench/soak/poison.ts's burst, and samples GET /admin/diagnostics/memory and the
// RSS every --sample-ms for --seconds; prints the curve, the peak above the pre-burst level, and the
// CPU each process spent.
//   npm run build -w apps/api && node --import tsx bench/poison-memory.ts [--entry compiled|source]
//     [--kind <text>] (only the poison kinds whose name holds it; repeatable) [--count 100]
//     [--each] (one burst per kind, one after another) [--repeat 1] (bursts one after another) [--devices 0] [--demo] [--seconds 180]
//     [--sample-ms 250] [--before-s 10] [--snapshot-at <s after the burst>] [--trace-gc]
//     [--dist <a build's directory>] (instead of a copy of apps/api/dist: to compare builds)
// --snapshot-at writes a heap snapshot of the server (SIGUSR2, in the repository's root) then.
import fs from 'node:fs';
import path from 'node:path';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startServer } from '../apps/api/src/test/server-process.ts';
import { cpuSeconds, ownCpuSeconds, rssMb } from './process-meter.ts';
import { Ledger } from './soak/accounting.ts';
import { ApiClient } from './soak/api-client.ts';
import { linkFor, SimDevice } from './soak/device.ts';
import { snapshotBuild } from './soak/soak-server.ts';
import { setUpOtherOrg, setUpSoakFleet } from './soak/fleet-setup.ts';
import { memoryPartsOf, type MemoryParts } from './soak/meter.ts';
import { poisonKinds, poisonVerdict, sendPoison } from './soak/poison.ts';

const { values } = parseArgs({
  options: {
    entry: { type: 'string', default: 'compiled' },
    kind: { type: 'string', multiple: true },
    count: { type: 'string', default: '100' },
    devices: { type: 'string', default: '0' },
    demo: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '180' },
    'sample-ms': { type: 'string', default: '250' },
    'before-s': { type: 'string', default: '10' },
    'snapshot-at': { type: 'string' },
    each: { type: 'boolean', default: false },
    'trace-gc': { type: 'boolean', default: false },
    dist: { type: 'string' },
    repeat: { type: 'string', default: '1' },
  },
});
const entry = values.entry === 'source' ? 'source' : 'compiled';
if (entry === 'compiled' && !values.dist && !fs.existsSync('apps/api/dist/main.js')) {
  console.error('apps/api/dist/main.js is missing: run `npm run build -w apps/api` first (or --entry source)');
  process.exit(1);
}
const count = Number(values.count);
const devicesN = Number(values.devices);
const seconds = Number(values.seconds);
const sampleMs = Number(values['sample-ms']);
const beforeMs = Number(values['before-s']) * 1000;
const snapshotAtMs = values['snapshot-at'] === undefined ? null : Number(values['snapshot-at']) * 1000;
const filters = values.kind ?? [];
const only = filters.length ? (k: string) => filters.some((f) => k.toLowerCase().includes(f.toLowerCase())) : undefined;
const say = (s: string) => console.log(s);

// A copy of the build, as the soak runs: others rebuilding apps/api/dist meanwhile would take files from under the server.
const build = entry !== 'compiled' ? null : values.dist ? { dir: path.resolve(values.dist), remove: () => undefined } : snapshotBuild();
const server = await startServer({
  entry,
  compiledMain: build ? path.join(build.dir, 'main.js') : undefined,
  env: { DEMO: values.demo ? '1' : '0', SIMULATOR: values.demo ? '1' : '0', LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '' },
  nodeArgs: [...(snapshotAtMs === null ? [] : ['--heapsnapshot-signal=SIGUSR2']), ...(values['trace-gc'] ? ['--trace-gc'] : [])],
  readyTimeoutMs: 600_000,
}).catch((err: unknown) => {
  build?.remove();
  throw err;
});
const ownCpu0 = ownCpuSeconds();
try {
  const api = new ApiClient(server.url);
  const target = { apiUrl: server.url, osmandPort: server.osmandPort, teltonikaPort: server.teltonikaPort };
  const other = await setUpOtherOrg(api);
  const stop = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  if (devicesN > 0) {
    const runMs = (seconds + 60) * 1000 + beforeMs;
    const fleet = await setUpSoakFleet(api, { devices: devicesN, runMs, intervalMs: 10_000 });
    const start = Math.ceil((Date.now() + 2000) / 1000) * 1000;
    const window = { start, end: start + runMs, intervalMs: 10_000 };
    const ledger = new Ledger();
    const devices = fleet.devices.map((spec) => new SimDevice(spec, linkFor(spec, target, fleet.ingestToken), ledger, window));
    setMaxListeners(devices.length + 10, stop.signal);
    running = Promise.all(devices.map((d) => d.run(stop.signal)));
    say(`${devicesN} soak devices sending every 10 s in the background; waiting 60 s for them to settle`);
    await sleep(60_000);
  }
  say(
    `server pid ${server.pid} (${entry}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, demo ${values.demo ? 'on' : 'off'}, ${devicesN} devices in the background)`,
  );

  type Report = Parameters<typeof memoryPartsOf>[0] & { heapSpaces: Array<{ space: string; usedMb: number }> };
  /** One burst of the kinds `only` picks: samples from `beforeMs` before it to `seconds` after; its figures. */
  const burst = async (only: ((k: string) => boolean) | undefined, label: string, table: boolean) => {
    const samples: Array<{ atMs: number; rss: number; parts: MemoryParts | null; oldMb: number | null }> = [];
    let t0 = Date.now() + beforeMs;
    const sampler = (async () => {
      while (Date.now() < t0 + seconds * 1000) {
        const next = Date.now() + sampleMs;
        const report = await api.tryGet<Report>('/admin/diagnostics/memory');
        samples.push({
          atMs: Date.now() - t0,
          rss: rssMb(server.pid),
          parts: report && memoryPartsOf(report),
          oldMb: report?.heapSpaces.find((h) => h.space === 'old_space')?.usedMb ?? null,
        });
        await sleep(Math.max(0, next - Date.now()));
      }
    })();
    await sleep(beforeMs);
    const cpuBefore = cpuSeconds(server.pid);
    t0 = Date.now();
    const outputAt = server.output().length;
    const snapshot =
      snapshotAtMs === null
        ? null
        : sleep(snapshotAtMs).then(() => {
            process.kill(server.pid, 'SIGUSR2');
            say(`heap snapshot asked at +${(snapshotAtMs / 1000).toFixed(1)} s (written in ${path.resolve(import.meta.dirname, '..')})`);
          });
    const results = await sendPoison(target, other, count, only);
    const answeredMs = Date.now() - t0;
    const cpuBurst = cpuSeconds(server.pid) - cpuBefore;
    await sampler;
    await snapshot;
    const cpuAll = cpuSeconds(server.pid) - cpuBefore;

    say(`\n## ${label}`);
    for (const r of results)
      say(
        `  ${r.kind} ×${count}: ${Object.entries(r.answers)
          .map(([a, n]) => `${a} ×${n}`)
          .join(', ')} (${poisonVerdict(r).words})`,
      );
    say(
      `  all answered ${(answeredMs / 1000).toFixed(1)} s after the burst; server CPU ${cpuBurst.toFixed(1)} s until then, ${cpuAll.toFixed(1)} s over the ${seconds} s`,
    );
    if (values['trace-gc']) {
      // The major collections of the main thread's heap from 10 s before the burst (a Mark-Compact line: size before -> after, MB).
      const lines = server
        .output()
        .slice(Math.max(0, outputAt - 20_000))
        .split('\n')
        .filter((l) => l.includes('Mark-Compact'));
      say(lines.map((l) => `  ${l.replace(/^\[\d+:0x[0-9a-f]+\]\s+/, '').slice(0, 150)}`).join('\n'));
    }
    if (table) {
      say('\n| t (s) | heap used MB | old space MB | heap total MB | external MB | RSS MB |\n|---|---|---|---|---|---|');
      let lastPrinted = -Infinity;
      for (const s of samples) {
        // Every sample for the first 20 s after the burst, one a second before, then one every 5 s.
        if ((s.atMs < 0 && s.atMs - lastPrinted < 1000) || (s.atMs > 20_000 && s.atMs - lastPrinted < 5000)) continue;
        lastPrinted = s.atMs;
        say(
          `| ${(s.atMs / 1000).toFixed(1)} | ${s.parts?.heapUsedMb.toFixed(0) ?? '?'} | ${s.oldMb?.toFixed(0) ?? '?'} | ${s.parts?.heapTotalMb.toFixed(0) ?? '?'} | ${s.parts?.externalMb.toFixed(0) ?? '?'} | ${s.rss.toFixed(0)} |`,
        );
      }
    }
    const before = samples.filter((s) => s.atMs < 0);
    const after = samples.filter((s) => s.atMs >= 0);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const heapBefore = median(before.flatMap((s) => (s.parts ? [s.parts.heapUsedMb] : [])));
    const oldBefore = median(before.flatMap((s) => (s.oldMb === null ? [] : [s.oldMb])));
    const rssBefore = median(before.map((s) => s.rss));
    const peak = (f: (s: (typeof samples)[number]) => number | null) =>
      after.reduce((m, s) => ((f(s) ?? 0) > m.v ? { v: f(s)!, at: s.atMs } : m), { v: 0, at: 0 });
    const peakHeap = peak((s) => s.parts?.heapUsedMb ?? null);
    const peakOld = peak((s) => s.oldMb);
    const peakRss = peak((s) => s.rss);
    const overFor = (limit: number) => {
      const over = after.filter((s) => s.parts && s.parts.heapUsedMb > limit);
      return over.length ? (over.at(-1)!.atMs - over[0]!.atMs) / 1000 : 0;
    };
    say(
      `  before: heap used ${heapBefore.toFixed(0)} MB (old space ${oldBefore.toFixed(0)}), RSS ${rssBefore.toFixed(0)} MB\n` +
        `  peak heap used ${peakHeap.v.toFixed(0)} MB at +${(peakHeap.at / 1000).toFixed(1)} s (**+${(peakHeap.v - heapBefore).toFixed(0)} MB**; above +20 MB for ${overFor(heapBefore + 20).toFixed(1)} s); ` +
        `old space +${(peakOld.v - oldBefore).toFixed(0)} MB at +${(peakOld.at / 1000).toFixed(1)} s\n` +
        `  peak RSS ${peakRss.v.toFixed(0)} MB at +${(peakRss.at / 1000).toFixed(1)} s (**+${(peakRss.v - rssBefore).toFixed(0)} MB**); RSS at the end ${samples.at(-1)?.rss.toFixed(0)} MB`,
    );
  };

  const chosen = only ? poisonKinds().filter(only) : poisonKinds();
  if (values.each) for (const k of chosen) await burst((x) => x === k, k, false);
  else {
    const repeat = Number(values.repeat);
    const label = chosen.length === poisonKinds().length ? 'every kind at once' : chosen.join('; ');
    for (let n = 1; n <= repeat; n++) await burst(only, repeat > 1 ? `${label}, burst ${n} of ${repeat}` : label, repeat === 1);
  }
  say(`\nthis script's CPU: ${(ownCpuSeconds() - ownCpu0).toFixed(1)} s`);
  stop.abort();
  await running;
} finally {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
  build?.remove();
}
