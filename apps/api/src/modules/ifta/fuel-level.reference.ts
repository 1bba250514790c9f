// The plain reference of the fuel-level machine (decision 0276): the whole trace at once, written
// the long way (stops first, each reading's median from the full list, the 30 minutes' highest by a
// scan), without the machine's queues and trimming. Only fuel-level-machine.test.ts uses it, to check
// the machine against it on random traces.
import { distanceM } from '@fleet/geo';
import { FUEL_MACHINE, levelPctOf, type FuelContext, type FuelEventDraft, type FuelFix } from './fuel-level-machine.ts';

interface Point {
  t: number;
  pct: number;
  lat: number;
  lon: number;
  driverId: string | null;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Every event the trace confirms; a stop still under way at its end confirms only what held. */
export function detectFuelEventsReference(fixes: readonly FuelFix[], ctx: FuelContext): FuelEventDraft[] {
  const m = FUEL_MACHINE;
  // The stops: runs of standing fixes, a new one where a fix stands too far from where the run began.
  const stops: Array<{ fixes: FuelFix[]; ended: boolean }> = [];
  let open: { fixes: FuelFix[]; ended: boolean } | null = null;
  for (let i = 0; i < fixes.length; i++) {
    const f = fixes[i]!;
    const prev = fixes[i - 1];
    const speed = f.speed ?? (prev && f.t > prev.t ? (distanceM(prev, f) / (f.t - prev.t)) * 3600 : null);
    const stands = f.ignition === false || (speed !== null && speed <= m.standingKmh);
    if (!stands || (open && distanceM(open.fixes[0]!, f) > m.stopRadiusM)) {
      if (open) open.ended = true;
      open = null;
    }
    if (!stands) continue;
    if (!open) stops.push((open = { fixes: [], ended: false }));
    open.fixes.push(f);
  }
  return stops.flatMap((s) => stopEvents(s.fixes, s.ended, ctx));
}

function stopEvents(fixes: readonly FuelFix[], ended: boolean, ctx: FuelContext): FuelEventDraft[] {
  const m = FUEL_MACHINE;
  const start = fixes[0]!.t;
  const settled = fixes.flatMap((f) => {
    const pct = levelPctOf(f, ctx.capacityL);
    return pct === null || f.t - start < m.settleMs ? [] : [{ f, pct }];
  });
  const out: FuelEventDraft[] = [];
  // The readings since the stop began or its last event that started no change (a change is measured from them).
  let base: Point[] = [];
  let pend: { kind: 'REFUEL' | 'DROP'; from: Point; extreme: number; moved: Point; off: boolean } | null = null;
  let last: Point | null = null;
  let i = -1;
  for (const f of fixes) {
    // The ignition off at any fix of the stop while a change is under way.
    if (pend && f.ignition === false) pend.off = true;
    if (settled[i + 1]?.f !== f) continue;
    i++;
    const inWindow = settled.slice(0, i + 1).filter((r) => r.f.t > f.t - m.smoothMs);
    const window = inWindow.length >= m.smoothReadings ? inWindow : settled.slice(Math.max(0, i + 1 - m.smoothReadings), i + 1);
    const p: Point = { t: f.t, pct: median(window.map((r) => r.pct)), lat: f.lat, lon: f.lon, driverId: f.driverId };
    last = p;
    if (pend) {
      const up = pend.kind === 'REFUEL' ? 1 : -1;
      if ((p.pct - pend.moved.pct) * up >= m.stillPct) pend.moved = p;
      else if ((pend.extreme - p.pct) * up >= m.backPct) pend = null;
      if (pend) {
        if ((p.pct - pend.extreme) * up > 0) pend.extreme = p.pct;
        if (p.t - pend.moved.t >= m.confirmMs) {
          out.push(draftOf(pend, p));
          pend = null;
          base = [p];
        }
        continue;
      }
    }
    const lowest = base.length ? Math.min(...base.map((b) => b.pct)) : null;
    const recent = base.filter((b) => b.t >= p.t - m.dropWithinMs);
    const top = recent.length ? Math.max(...recent.map((b) => b.pct)) : null;
    if (lowest !== null && p.pct - lowest >= m.refuelPct) {
      // The last reading within 1 % of the lowest before it (or a new lowest).
      const lowLast = base.filter((b, k) => b.pct < Math.min(...base.slice(0, k + 1).map((x) => x.pct)) + m.stillPct).at(-1)!;
      pend = { kind: 'REFUEL', from: { ...lowLast, pct: lowest }, extreme: p.pct, moved: p, off: f.ignition === false };
      continue;
    }
    if (top !== null && top - p.pct >= m.dropPct) {
      const from = recent.filter((b) => b.pct === top).at(-1)!;
      pend = { kind: 'DROP', from, extreme: p.pct, moved: p, off: f.ignition === false };
      continue;
    }
    base.push(p);
  }
  if (ended && pend && last) {
    const p: Point = last;
    const kept = pend.kind === 'REFUEL' ? p.pct - pend.from.pct >= m.refuelPct : pend.from.pct - p.pct >= m.dropPct;
    if (kept) out.push(draftOf(pend, p));
  }
  return out;
}

function draftOf(pend: { kind: 'REFUEL' | 'DROP'; from: Point; moved: Point; off: boolean }, to: Point): FuelEventDraft {
  return {
    type: pend.kind,
    startedAt: pend.from.t,
    endedAt: pend.moved.t,
    lat: to.lat,
    lon: to.lon,
    driverId: to.driverId,
    levelBeforePct: pend.from.pct,
    levelAfterPct: to.pct,
    ignitionOff: pend.off,
  };
}
