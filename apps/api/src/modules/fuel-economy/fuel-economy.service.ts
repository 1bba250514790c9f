import {
  FUEL_ECONOMY_MAX_DAYS,
  type FuelBasis,
  type FuelEconomy,
  type FuelEconomyFigure,
  type FuelEconomyRow,
  type fuelEconomyQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import { invalidField } from '../../http/errors.ts';
import type { ReadScope } from '../auth/index.ts';
import { assertGroup } from '../groups/index.ts';
import type { EnginePiece } from './engine-fuel.ts';
import { fillSpan, type FillSpan, type TripStart } from './fill-to-fill.ts';
import {
  readDriverTrips,
  readFixSpans,
  readGroupMembers,
  readIdling,
  readNames,
  readPurchases,
  readSpan,
  readTripsIn,
  readVehicleDays,
  type IdleSums,
} from './fuel-economy.repository.ts';
import { engineFuelOfDays } from './vehicle-day-fuel.ts';

// Fuel economy and idling per vehicle or per driver over calendar days (issue 68, decision 0280).
// A vehicle's fuel is the engine counter's rise over the distance driven while it was read, where
// its positions carry the counter; else the fill-to-fill fuel of its purchases over the distance of
// its trips between the first and the last fill. A driver's is the sum over the vehicles they drove:
// the engine intervals attributed to them, and of a vehicle measured by its purchases, their share
// of the trips between the fills at that vehicle's economy. Idling is the safety module's.

const DAY = 86_400_000;

/** Fuel over a distance with where it came from: what a figure is made of before rounding. */
interface Amount {
  basis: FuelBasis;
  fuelL: number;
  distanceM: number;
  from: number;
  to: number;
  fills: number | null;
}

const r1 = (v: number) => Math.round(v * 10) / 10;
const r2 = (v: number) => Math.round(v * 100) / 100;

function figureOf(a: Amount | null): FuelEconomyFigure | null {
  if (!a || !(a.fuelL > 0) || !(a.distanceM > 0)) return null;
  return {
    basis: a.basis,
    fuelL: r2(a.fuelL),
    distanceM: Math.round(a.distanceM),
    lPer100Km: r2(a.fuelL / (a.distanceM / 100_000)),
    from: new Date(a.from).toISOString(),
    to: new Date(a.to).toISOString(),
    fills: a.fills,
  };
}

/**
 * Amounts added together: ENGINE or PURCHASES when all agree, else MIXED. Fuel without distance
 * counts too (a day the truck only idled burnt fuel the economy must include).
 */
function sumAmounts(list: ReadonlyArray<Amount | null | undefined>): Amount | null {
  let out: Amount | null = null;
  for (const a of list) {
    if (!a || (!(a.fuelL > 0) && !(a.distanceM > 0))) continue;
    out = out
      ? {
          basis: out.basis === a.basis ? a.basis : 'MIXED',
          fuelL: out.fuelL + a.fuelL,
          distanceM: out.distanceM + a.distanceM,
          from: Math.min(out.from, a.from),
          to: Math.max(out.to, a.to),
          fills: out.fills === null && a.fills === null ? null : (out.fills ?? 0) + (a.fills ?? 0),
        }
      : { ...a };
  }
  return out;
}

/** The median of `values` (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const idleShare = (idleMs: number, drivingMs: number): number | null => (idleMs + drivingMs > 0 ? (idleMs / (idleMs + drivingMs)) * 100 : null);

/** A subject's figures before rounding. */
interface Subject {
  id: string;
  distanceM: number;
  drivingMs: number;
  amount: Amount | null;
  idle: IdleSums | undefined;
}

function rowOf(s: Subject, name: string): FuelEconomyRow {
  const idleMs = s.idle?.ms ?? 0;
  const share = idleShare(idleMs, s.drivingMs);
  return {
    id: s.id,
    name,
    distanceM: Math.round(s.distanceM),
    drivingMs: Math.round(s.drivingMs),
    economy: figureOf(s.amount),
    idleMs: Math.round(idleMs),
    idleEvents: s.idle?.events ?? 0,
    idleFuelL: s.idle?.fuelL == null ? null : r2(s.idle.fuelL),
    idleSharePct: share === null ? null : r1(share),
  };
}

/** `GET …/fuel-economy`: per vehicle (or driver) over [from, to], calendar days of the organization. */
export async function fuelEconomy({ db, orgId }: ReadScope, q: z.output<typeof fuelEconomyQuery>): Promise<FuelEconomy> {
  if (q.to < q.from) throw invalidField('to', 'To must be on or after From');
  const days = Math.round((Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / DAY) + 1;
  if (days > FUEL_ECONOMY_MAX_DAYS) throw invalidField('to', `The range may cover at most ${FUEL_ECONOMY_MAX_DAYS} days`);
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const span = await readSpan(db, orgId, q.from, q.to);
  const [vehicleDays, purchases] = await Promise.all([readVehicleDays(db, orgId, q.from, q.to), readPurchases(db, orgId, span.start, span.end)]);
  const pieces = await engineFuelOfDays(db, orgId, vehicleDays);

  // Per vehicle: the days' distance and driving, the engine pieces per driver.
  const vehicles = new Map<string, { name: string; distanceM: number; drivingMs: number; engine: Map<string | null, Amount> }>();
  for (const d of vehicleDays) {
    const v = vehicles.get(d.assetId) ?? { name: d.unitNumber, distanceM: 0, drivingMs: 0, engine: new Map() };
    v.distanceM += d.distanceM;
    v.drivingMs += d.drivingMs;
    for (const p of pieces.get(`${d.assetId}|${d.day}`) ?? []) v.engine.set(p.driverId, addPiece(v.engine.get(p.driverId), p));
    vehicles.set(d.assetId, v);
  }
  // The engine where it gives a figure, else the purchases between the first and last fill.
  const engineOf = new Map<string, Amount>();
  const fillSpans = new Map<string, FillSpan>();
  const byVehicle = groupBy(purchases, (p) => p.assetId);
  for (const [id, v] of vehicles) {
    const engine = sumAmounts([...v.engine.values()]);
    if (engine && figureOf(engine)) engineOf.set(id, engine);
  }
  // Fills only while the vehicle's distance is known (between its first and last fix in the range):
  // fuel bought before its positions begin was burnt over miles nobody counted (issue 46).
  const bought = [...byVehicle.keys()].filter((id) => vehicles.has(id) && !engineOf.has(id));
  const known = await readFixSpans(db, orgId, bought, span.start, span.end);
  const tripsOf: Map<string, TripStart[]> = groupBy(
    await readTripsIn(
      db,
      orgId,
      [...known].map(([assetId, k]) => ({ assetId, from: k.first, to: k.last })),
    ),
    (x) => x.assetId,
  );
  const purchaseOf = new Map<string, Amount>();
  for (const [id, k] of known) {
    const s = fillSpan(
      (byVehicle.get(id) ?? []).filter((p) => p.t >= k.first && p.t <= k.last),
      tripsOf.get(id) ?? [],
    );
    if (s) {
      fillSpans.set(id, s);
      purchaseOf.set(id, { basis: 'PURCHASES', fuelL: s.litres, distanceM: s.distanceM, from: s.from, to: s.to, fills: s.fills });
    }
  }

  const subjects: Subject[] = [];
  const idling = new Map((await readIdling(db, orgId, q.groupBy, span.start, span.end)).map((i) => [i.id, i]));
  if (q.groupBy === 'vehicle') {
    for (const [id, v] of vehicles)
      subjects.push({ id, distanceM: v.distanceM, drivingMs: v.drivingMs, amount: engineOf.get(id) ?? purchaseOf.get(id) ?? null, idle: idling.get(id) });
    // A vehicle idling without a day of statistics (none expected: idling comes from positions) still shows.
    for (const [id, i] of idling) if (!vehicles.has(id)) subjects.push({ id, distanceM: 0, drivingMs: 0, amount: null, idle: i });
  } else {
    // A driver's share of each vehicle: the engine intervals attributed to them; of a vehicle measured
    // by its purchases, their trips between the fills at the vehicle's economy.
    const shares = new Map<string, Amount[]>();
    const add = (driverId: string | null, a: Amount) => {
      if (driverId === null) return;
      const list = shares.get(driverId);
      if (list) list.push(a);
      else shares.set(driverId, [a]);
    };
    for (const [id, v] of vehicles) if (engineOf.has(id)) for (const [driverId, a] of v.engine) add(driverId, a);
    for (const [id, s] of fillSpans) {
      const whole = purchaseOf.get(id)!;
      for (const [driverId, distanceM] of s.byDriver) add(driverId, { ...whole, fuelL: (whole.fuelL * distanceM) / whole.distanceM, distanceM, fills: null });
    }
    const trips = new Map((await readDriverTrips(db, orgId, span.start, span.end)).map((t) => [t.driverId, t]));
    for (const id of new Set([...trips.keys(), ...shares.keys(), ...idling.keys()])) {
      const t = trips.get(id);
      subjects.push({ id, distanceM: t?.distanceM ?? 0, drivingMs: t?.drivingMs ?? 0, amount: sumAmounts(shares.get(id) ?? []), idle: idling.get(id) });
    }
  }

  // The medians: every vehicle (driver) of the organization with the figure, whatever the filters.
  const economies = subjects.flatMap((s) => {
    const f = figureOf(s.amount);
    return f ? [s.amount!.fuelL / (s.amount!.distanceM / 100_000)] : [];
  });
  const shares = subjects.flatMap((s) => {
    const v = idleShare(s.idle?.ms ?? 0, s.drivingMs);
    return v === null ? [] : [v];
  });
  const members = q.groupId ? await readGroupMembers(db, orgId, q.groupBy, q.groupId) : null;
  const only = q.groupBy === 'vehicle' ? q.assetId : q.driverId;
  const chosen = subjects.filter((s) => (!members || members.has(s.id)) && (!only || s.id === only));
  const names = await readNames(
    db,
    orgId,
    q.groupBy,
    chosen.map((s) => s.id),
  );
  const rows = chosen
    .filter((s) => names.has(s.id))
    .map((s) => rowOf(s, names.get(s.id)!))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  const kept = chosen.filter((s) => names.has(s.id));
  const idleMs = kept.reduce((a, s) => a + (s.idle?.ms ?? 0), 0);
  const idleFuels = kept.flatMap((s) => (s.idle?.fuelL == null ? [] : [s.idle.fuelL]));
  const totalShare = idleShare(
    idleMs,
    kept.reduce((a, s) => a + s.drivingMs, 0),
  );
  const medianEconomy = median(economies);
  const medianShare = median(shares);
  return {
    from: q.from,
    to: q.to,
    groupBy: q.groupBy,
    median: {
      lPer100Km: medianEconomy === null ? null : r2(medianEconomy),
      economyCount: economies.length,
      idleSharePct: medianShare === null ? null : r1(medianShare),
      idleShareCount: shares.length,
    },
    totals: {
      economy: figureOf(sumAmounts(kept.map((s) => s.amount))),
      distanceM: Math.round(kept.reduce((a, s) => a + s.distanceM, 0)),
      idleMs: Math.round(idleMs),
      idleFuelL: idleFuels.length ? r2(idleFuels.reduce((a, b) => a + b, 0)) : null,
      idleSharePct: totalShare === null ? null : r1(totalShare),
    },
    rows,
  };
}

/** Items by key, in their order. */
function groupBy<T>(items: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

/** A day's engine piece added to what a vehicle's driver had. */
function addPiece(a: Amount | undefined, p: EnginePiece): Amount {
  return a
    ? { ...a, fuelL: a.fuelL + p.fuelL, distanceM: a.distanceM + p.distanceM, from: Math.min(a.from, p.from), to: Math.max(a.to, p.to) }
    : { basis: 'ENGINE', fuelL: p.fuelL, distanceM: p.distanceM, from: p.from, to: p.to, fills: null };
}
