// `npm run simulate -- --devices N --interval S --target URL [--prefix demo-truck-] [--duration S]`
// A load generator with the demo simulator's code: N trucks on the interstate network, each
// posting its OsmAnd fix every S seconds to URL (an OsmAnd port such as http://127.0.0.1:5055/ or
// http://host:8080/api/v1/ingest/osmand). Devices must exist: ids are <prefix><NN> (demo-truck-01…).
import { parseArgs } from 'node:util';
import { postFix } from './simulator/poster.ts';
import { TruckPlan } from './simulator/truck-plan.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '25' },
    interval: { type: 'string', default: '10' },
    target: { type: 'string', default: 'http://127.0.0.1:5055/' },
    prefix: { type: 'string', default: 'demo-truck-' },
    duration: { type: 'string', default: '0' },
  },
});
const devices = Number(values.devices);
const interval = Number(values.interval);
const duration = Number(values.duration);
if (!Number.isInteger(devices) || devices < 1 || !(interval > 0) || !(duration >= 0)) {
  console.error('usage: npm run simulate -- --devices N --interval S --target URL [--prefix demo-truck-] [--duration S]');
  process.exit(2);
}
const pad = Math.max(2, String(devices).length);
const trucks = Array.from({ length: devices }, (_, i) => ({ id: `${values.prefix}${String(i + 1).padStart(pad, '0')}`, plan: new TruckPlan(i + 1) }));
let ok = 0;
let failed = 0;
let inFlight = 0;
const started = Date.now();
console.log(`${devices} devices every ${interval} s to ${values.target}`);

async function round(): Promise<void> {
  const now = Date.now();
  await Promise.all(
    trucks.map(async (t) => {
      inFlight++;
      try {
        const status = await postFix(values.target!, t.id, now, t.plan.stateAt(now));
        if (status >= 200 && status < 300) ok++;
        else failed++;
      } catch {
        failed++;
      } finally {
        inFlight--;
      }
    }),
  );
}

const timer = setInterval(() => void round(), interval * 1000);
void round();
const report = setInterval(() => {
  const s = (Date.now() - started) / 1000;
  console.log(`${s.toFixed(0)} s: ${ok} acknowledged (${(ok / s).toFixed(0)}/s), ${failed} failed, ${inFlight} in flight`);
  if (duration && s >= duration) {
    clearInterval(timer);
    clearInterval(report);
  }
}, 5000);
