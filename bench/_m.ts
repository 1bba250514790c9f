import { DEFAULT_SAFETY_SETTINGS } from '@fleet/api-contract';
import { highwayNetwork } from '@fleet/geo/highways';
import { speedLimitIndex } from '@fleet/geo/speed-limits';
import { blankSafetyTrack, stepSafety, type MachineContext } from '../apps/api/src/modules/safety/safety-machine.ts';
import { signalsOf } from '../apps/api/src/modules/safety/signals.ts';
const limits = speedLimitIndex();
const net = highwayNetwork().pieces.filter((p) => p.points.length >= 4);
const ctx: MachineContext = { settings: DEFAULT_SAFETY_SETTINGS, thresholds: DEFAULT_SAFETY_SETTINGS.thresholds.HEAVY, gpsHarsh: true, limitAt: (lat, lon) => limits.at(lat, lon, true), inYard: () => false };
const attrs: Array<Record<string, unknown>> = [{}, { ignition: true }, { ignition: true, motion: true, power: 13.8 }];
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let rep = 0; rep < 3; rep++) {
  let c0 = cpu();
  let n = 0;
  for (let i = 0; i < 120000; i++) { const s = signalsOf(attrs[i % 3]!, false); n += s.signals.length; }
  const sig = cpu() - c0;
  c0 = cpu();
  let k = 0;
  for (let v = 0; v < 1000; v++) {
    const piece = net[v % net.length]!; const [ax, ay] = piece.points[0]!; const [bx, by] = piece.points[piece.points.length - 1]!;
    for (let s = 0; s < 120; s++) { const kk = s / 120; if (limits.at(ay + (by - ay) * kk, ax + (bx - ax) * kk, true)) k++; }
  }
  const lim = cpu() - c0;
  const tracks = Array.from({ length: 1000 }, () => blankSafetyTrack());
  c0 = cpu();
  let d = 0;
  const base = Date.UTC(2026, 10, 2, 12);
  for (let v = 0; v < 1000; v++) {
    const piece = net[v % net.length]!; const [ax, ay] = piece.points[0]!; const [bx, by] = piece.points[piece.points.length - 1]!;
    const cruise = 95 + (v % 7) * 5;
    for (let s = 0; s < 120; s++) {
      const kk = s / 120;
      const speed = v % 10 === 0 && s >= 90 && s < 96 ? Math.max(20, cruise - (s - 89) * 20) : cruise;
      const sg = signalsOf(attrs[s % 3]!, false);
      const fix = { t: base + rep * 1e7 + s * 1000, lat: ay + (by - ay) * kk, lon: ax + (bx - ax) * kk, speed, ignition: true, driverId: null, signals: sg.signals, idling: sg.idling, fuelUsedL: sg.fuelUsedL };
      d += stepSafety(tracks[v]!, fix, ctx).length;
    }
  }
  const all = cpu() - c0;
  console.log(`signals ${(sig * 1000 / 120000).toFixed(3)} µs, limit ${(lim * 1000 / 120000).toFixed(3)} µs, full step ${(all * 1000 / 120000).toFixed(3)} µs (${d} drafts)`);
}
