import {
  KM_PER_MILE,
  UNIT_LABELS,
  distanceText,
  farThresholdText,
  priceMismatchMessage,
  quarterDays,
  tankCapacityText,
  quarterDueDate,
  STATE_OPTIONS,
  type IftaFlag,
  type IftaReport,
  type IftaReturn,
  type IftaVehicleRow,
} from '@fleet/api-contract';
import { BOUNDARY_DATASET, IFTA_JURISDICTIONS } from '@fleet/geo/jurisdictions';
import type { DbOrTx } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { assertGroup } from '../groups/index.ts';
import type { ReadScope } from '../auth/index.ts';
import { readSettings } from '../organizations/index.ts';
import { readOrganizationAndFiling, readQualifiedVehicles, readQuarter, vehicleExists } from './ifta-report.repository.ts';
import { ratesForReturn } from './ifta-rates.service.ts';
import { computeReturn, interestRatePpm, METRES_PER_MILE, milesOf, milliGallons, monthsLate, type JurisdictionInput } from './return-math.ts';
import { dayClock } from './distance-days.ts';
import { iftaZone } from './ifta-zone.ts';
import { cardTransactionCounts } from './fuel-transactions.repository.ts';
import { refreshLateChecks } from './fuel-transactions.service.ts';

// The quarter's return (decision 0122): aggregates of the distance tables, fuel purchases and
// adjustments in a handful of statements (never raw positions), then the pure return maths.

export interface ReportQuery {
  quarter: string;
  fuelType: string;
  assetId?: string;
  groupId?: string;
  /** Interest and penalty are counted to this day (default: today, or the filing's day when closed). */
  asOf?: string;
}

const NAMES = new Map<string, { name: string; country: string }>(STATE_OPTIONS.map((s) => [s.code, { name: s.name, country: s.country }]));
NAMES.set('MX', { name: 'Mexico', country: 'MX' });
NAMES.set('unknown', { name: 'Unknown place', country: '' });

/** At most this many flagged items of each kind are listed (the counts cover all). */
const MAX_FLAGS_PER_KIND = 200;
const ODOMETER_TOLERANCE = 0.1;

interface VehicleInfo {
  id: string;
  unitNumber: string;
}

/** Vehicles the return covers: IFTA-qualified vehicles of the fuel type, narrowed to one vehicle or a group. */
async function scopeVehicles(db: DbOrTx, orgId: string, q: ReportQuery): Promise<{ inScope: VehicleInfo[]; otherFuel: Set<string> }> {
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const rows = await readQualifiedVehicles(db, orgId, q);
  if (q.assetId && rows.length === 0 && !(await vehicleExists(db, orgId, q.assetId))) throw notFound('Vehicle');
  return {
    inScope: rows.filter((r) => r.fuelType === q.fuelType).sort((a, b) => a.unitNumber.localeCompare(b.unitNumber, undefined, { numeric: true })),
    otherFuel: new Set(rows.filter((r) => r.fuelType !== q.fuelType).map((r) => r.id)),
  };
}

export async function buildReport({ db, orgId }: ReadScope, q: ReportQuery): Promise<IftaReport> {
  const { from, to } = quarterDays(q.quarter);
  const dueDate = quarterDueDate(q.quarter);
  const fleetWide = !q.assetId && !q.groupId;
  const [head, { inScope, otherFuel }] = await Promise.all([readOrganizationAndFiling(db, orgId, q.quarter), scopeVehicles(db, orgId, q)]);
  if (!head) throw notFound('Organization');
  const { org, filing } = head;
  const ids = inScope.map((v) => v.id);
  const unit = new Map(inScope.map((v) => [v.id, v.unitNumber]));
  const asOf = q.asOf ?? filing?.filedAt ?? new Date().toISOString().slice(0, 10);
  // Station distances and speeds are not IFTA units: the organization's units say them.
  const units = readSettings(org.settings).units;
  // The quarter's days are the base jurisdiction's (decision 0189): the distance rows are cut so, and
  // purchases are bounded by the same midnights.
  const timeZone = iftaZone(org);
  const clock = dayClock(timeZone);
  const fromAt = new Date(clock.startOf(from));
  const toAt = new Date(clock.startOf(to));

  const [{ distance, odometers, reviewDays, impossible, jumps, purchases, suspicious, adjustments, marks }, rates] = await Promise.all([
    readQuarter(db, orgId, { quarter: q.quarter, from, to, fromAt, toAt, vehicleIds: fleetWide ? null : ids, maxFlagsPerKind: MAX_FLAGS_PER_KIND }),
    ratesForReturn(db, q.quarter, q.fuelType),
  ]);
  // Fuel-card transactions (issue 68): unverified purchases still count; the return says how many.
  await refreshLateChecks(db, orgId, { from: fromAt, to: toAt });
  const cardTransactions = await cardTransactionCounts(db, orgId, fromAt, toAt, q.fuelType);
  // Who marked which item reviewed (an item's key names it as it is now; older marks no longer match).
  const markOf = new Map(marks.map((m) => [m.itemKey, m]));

  // Miles per jurisdiction (fleet) and per vehicle.
  const byJur = new Map<string, { metres: number; exempt: number }>();
  const perVehicle = new Map<string, Map<string, number>>();
  const add = (code: string, metres: number, exempt: number) => {
    const e = byJur.get(code) ?? { metres: 0, exempt: 0 };
    e.metres += metres;
    e.exempt += exempt;
    byJur.set(code, e);
  };
  const inScopeIds = new Set(ids);
  for (const r of distance as Array<{ vehicle_id: string; jurisdiction: string; m: number | string }>) {
    if (!inScopeIds.has(r.vehicle_id)) continue;
    const m = Number(r.m);
    add(r.jurisdiction, m, 0);
    const v = perVehicle.get(r.vehicle_id) ?? new Map<string, number>();
    v.set(r.jurisdiction, (v.get(r.jurisdiction) ?? 0) + m);
    perVehicle.set(r.vehicle_id, v);
  }
  // Issue 46: a jump flagged as impossible (one stray fix added 716 interpolated miles) is left out of
  // the totals until someone accepts it by marking its day's item reviewed; the return says so.
  const unaccepted = { days: new Set<string>(), byJur: new Map<string, number>() };
  for (const j of jumps as Array<{ vehicle_id: string; day: string; m: number | string; js: string[] | string; jm: Record<string, number> | string | null }>) {
    if (!inScopeIds.has(j.vehicle_id) || markOf.has(`IMPOSSIBLE_SPEED:${j.vehicle_id}:${j.day.slice(0, 10)}`)) continue;
    unaccepted.days.add(`${j.vehicle_id}|${j.day}`);
    const pieces = jumpPieces(Number(j.m), j.js, j.jm);
    const v = perVehicle.get(j.vehicle_id);
    for (const [code, m] of pieces) {
      const e = byJur.get(code);
      if (e) e.metres = Math.max(0, e.metres - m);
      if (v?.has(code)) v.set(code, Math.max(0, v.get(code)! - m));
      unaccepted.byJur.set(code, (unaccepted.byJur.get(code) ?? 0) + m);
    }
  }

  // Adjustments: a vehicle's go to its vehicle's return; the fleet's (no vehicle) to the diesel return of the whole fleet.
  for (const a of adjustments) {
    const applies = a.vehicleId ? inScopeIds.has(a.vehicleId) : fleetWide && q.fuelType === 'DIESEL';
    if (!applies) continue;
    if (a.kind === 'MISSING_TRIP' || a.kind === 'CORRECTION') add(a.jurisdiction, a.distanceM, 0);
    else add(a.jurisdiction, 0, a.distanceM);
    if (a.vehicleId && (a.kind === 'MISSING_TRIP' || a.kind === 'CORRECTION')) {
      const v = perVehicle.get(a.vehicleId) ?? new Map<string, number>();
      v.set(a.jurisdiction, (v.get(a.jurisdiction) ?? 0) + a.distanceM);
      perVehicle.set(a.vehicleId, v);
    }
  }

  // Fuel: every gallon of the fuel type in the vehicles of the return; tax-paid gallons by jurisdiction.
  const taxPaidByJur = new Map<string, number>();
  const gallonsByVehicle = new Map<string, number>();
  let totalMilliGallons = 0;
  type NewFlag = Omit<IftaFlag, 'key' | 'reviewed'> & { key: string };
  const flags: NewFlag[] = [];
  const mismatchedFuel = new Set<string>();
  for (const p of purchases) {
    if (p.fuelType !== q.fuelType) continue;
    if (!inScopeIds.has(p.vehicleId)) {
      if (otherFuel.has(p.vehicleId)) mismatchedFuel.add(p.vehicleId);
      continue;
    }
    const mg = milliGallons(Number(p.milli), p.unit);
    totalMilliGallons += mg;
    gallonsByVehicle.set(p.vehicleId, (gallonsByVehicle.get(p.vehicleId) ?? 0) + mg);
    if (p.taxPaid) taxPaidByJur.set(p.jurisdiction, (taxPaidByJur.get(p.jurisdiction) ?? 0) + mg);
    if (!byJur.has(p.jurisdiction)) byJur.set(p.jurisdiction, { metres: 0, exempt: 0 });
  }

  const lines: JurisdictionInput[] = [...byJur].map(([code, v]) => ({
    jurisdiction: code,
    name: NAMES.get(code)?.name ?? code,
    country: NAMES.get(code)?.country ?? '',
    member: IFTA_JURISDICTIONS.has(code),
    metres: v.metres,
    exemptMetres: v.exempt,
    taxPaidMilliGallons: taxPaidByJur.get(code) ?? 0,
  }));
  const late = monthsLate(dueDate, asOf);
  const ret = computeReturn({
    fuelType: q.fuelType,
    lines,
    totalMilliGallons,
    rates: rates.rates,
    monthsLate: late,
    interestPpm: interestRatePpm(Number(dueDate.slice(0, 4))),
  });

  // Per-vehicle breakdown with the odometer check.
  const odo = new Map((odometers as Array<{ vehicle_id: string; odo: number | string; m: number | string }>).map((r) => [r.vehicle_id, r] as const));
  const vehicles: IftaVehicleRow[] = [];
  for (const v of inScope) {
    const jm = perVehicle.get(v.id) ?? new Map<string, number>();
    const juris = [...jm]
      .map(([jurisdiction, m]) => ({ jurisdiction, miles: milesOf(m) }))
      .filter((j) => j.miles !== 0)
      .sort((a, b) => b.miles - a.miles);
    const totalMiles = juris.reduce((s, j) => s + j.miles, 0);
    const gallons = Math.round((gallonsByVehicle.get(v.id) ?? 0) / 1000);
    if (totalMiles === 0 && gallons === 0) continue;
    const o = odo.get(v.id);
    const odometerMetres = o ? Number(o.odo) : null;
    const recordedMetres = o ? Number(o.m) : 0;
    vehicles.push({
      assetId: v.id,
      unitNumber: v.unitNumber,
      totalMiles,
      gallons,
      mpg: gallons > 0 ? Math.round((totalMiles / gallons) * 100) / 100 : null,
      jurisdictions: juris,
      odometerMiles: odometerMetres === null ? null : milesOf(odometerMetres),
      recordedMiles: milesOf(recordedMetres),
    });
    if (odometerMetres !== null && recordedMetres > METRES_PER_MILE && Math.abs(odometerMetres - recordedMetres) > ODOMETER_TOLERANCE * recordedMetres) {
      flags.push({
        kind: 'ODOMETER_MISMATCH',
        assetId: v.id,
        unitNumber: v.unitNumber,
        day: null,
        jurisdiction: null,
        miles: milesOf(odometerMetres - recordedMetres),
        message: `Odometer travel ${milesOf(odometerMetres).toLocaleString('en-US')} mi against ${milesOf(recordedMetres).toLocaleString('en-US')} mi recorded on the days with readings (more than 10 % apart): an odometer reset, a device swap or missing positions`,
        purchaseId: null,
        key: `ODOMETER_MISMATCH:${v.id}`,
      });
    }
  }

  const dayFlag = (
    kind: IftaFlag['kind'],
    rows: Array<{ vehicle_id: string; day: string; m: number | string; j?: string; n?: number }>,
    text: (r: { miles: number; j?: string; n?: number }) => string,
  ) => {
    for (const r of rows.filter((x) => inScopeIds.has(x.vehicle_id)).slice(0, MAX_FLAGS_PER_KIND)) {
      const miles = Math.round((Number(r.m) / METRES_PER_MILE) * 10) / 10;
      flags.push({
        kind,
        assetId: r.vehicle_id,
        unitNumber: unit.get(r.vehicle_id) ?? null,
        day: r.day,
        jurisdiction: r.j ?? null,
        miles,
        message: text({ miles, j: r.j, n: r.n }),
        purchaseId: null,
        key: `${kind}:${r.vehicle_id}:${r.day}${r.j ? `:${r.j}` : ''}`,
      });
    }
  };
  const review = (reviewDays as Array<{ vehicle_id: string; day: string; jurisdiction: string; m: number | string; im: number | string }>).filter((r) =>
    inScopeIds.has(r.vehicle_id),
  );
  const unknownRows = review.filter((r) => r.jurisdiction === 'unknown' && Number(r.m) > 0).map((r) => ({ vehicle_id: r.vehicle_id, day: r.day, m: r.m }));
  const gaps = new Map<string, { vehicle_id: string; day: string; m: number; j: string[] }>();
  for (const r of review) {
    if (!(Number(r.im) > 0)) continue;
    const k = `${r.vehicle_id}|${r.day}`;
    const g = gaps.get(k) ?? { vehicle_id: r.vehicle_id, day: r.day, m: 0, j: [] };
    g.m += Number(r.im);
    g.j.push(r.jurisdiction);
    gaps.set(k, g);
  }
  dayFlag('UNKNOWN_PLACE', unknownRows, (r) => `${r.miles} mi in no state or province (a lake, the sea, abroad): assign them with an adjustment`);
  dayFlag(
    'INTERPOLATED',
    [...gaps.values()].map((g) => ({ ...g, j: g.j.sort().join(',') })),
    (r) => `${r.miles} mi allocated along a straight line over a gap in positions (${r.j})`,
  );
  const speedLimit = units === 'IMPERIAL' ? '90 mph' : `${Math.round(90 * KM_PER_MILE)} ${UNIT_LABELS.METRIC.speed}`;
  dayFlag(
    'IMPOSSIBLE_SPEED',
    impossible as Array<{ vehicle_id: string; day: string; m: number | string; n: number }>,
    (r) => `${r.n} jump${r.n === 1 ? '' : 's'} faster than ${speedLimit} (${r.miles} mi): check the device; left out of the totals until marked reviewed`,
  );
  // Every purchase to review, once per reason; a purchase edited since it was reviewed comes back (its key names its version).
  const purchaseFlags = { SUSPICIOUS_PURCHASE: 0, PRICE_MISMATCH: 0, BULK_PURCHASE: 0 };
  for (const p of suspicious) {
    if (!inScopeIds.has(p.vehicleId)) continue;
    const base = {
      assetId: p.vehicleId,
      unitNumber: unit.get(p.vehicleId) ?? null,
      day: p.purchasedAt.toISOString().slice(0, 10),
      jurisdiction: p.jurisdiction,
      purchaseId: p.id,
    };
    const version = p.updatedAt.getTime();
    const push = (kind: keyof typeof purchaseFlags, miles: number | null, message: string) => {
      if (purchaseFlags[kind]++ >= MAX_FLAGS_PER_KIND) return;
      flags.push({ ...base, kind, miles, message, key: `${kind}:${p.id}:${version}` });
    };
    if (p.locationCheck === 'FAR' || p.locationCheck === 'OTHER_JURISDICTION') {
      push(
        'SUSPICIOUS_PURCHASE',
        p.locationDistanceM === null ? null : Math.round((p.locationDistanceM / METRES_PER_MILE) * 10) / 10,
        p.locationCheck === 'FAR'
          ? `Receipt ${p.receiptNumber}: the vehicle was ${distanceText(p.locationDistanceM ?? 0, units)} from the station at that time (more than ${farThresholdText(units)})`
          : `Receipt ${p.receiptNumber}: the vehicle was not in ${p.jurisdiction} at that time`,
      );
    }
    if (p.priceMismatch && p.pricePerUnitMilli !== null && p.totalCents !== null) {
      push(
        'PRICE_MISMATCH',
        null,
        priceMismatchMessage(p.receiptNumber, p.quantityMilli / 1000, p.volumeUnit, p.pricePerUnitMilli / 1000, p.totalCents / 100, p.currency),
      );
    }
    if (p.bulk && p.overTank) {
      const qty = `${(p.quantityMilli / 1000).toLocaleString('en-US')} ${p.volumeUnit === 'GAL' ? 'gal' : 'L'}`;
      push(
        'BULK_PURCHASE',
        null,
        `Receipt ${p.receiptNumber}: ${qty}, more than the ${tankCapacityText(p.tank, units)} tank, entered as a bulk or split entry: check it is shared out to the right vehicles`,
      );
    }
  }
  for (const v of mismatchedFuel) {
    flags.push({
      kind: 'UNQUALIFIED_FUEL',
      assetId: v,
      unitNumber: null,
      day: null,
      jurisdiction: null,
      miles: null,
      message: `${q.fuelType.toLowerCase()} bought for a vehicle registered with another fuel type: not in this return`,
      purchaseId: null,
      key: `UNQUALIFIED_FUEL:${v}:${q.fuelType}`,
    });
  }
  if (ret.totals.totalMiles > 0 && ret.totals.totalGallons === 0) {
    flags.push({
      kind: 'NO_PURCHASES',
      assetId: null,
      unitNumber: null,
      day: null,
      jurisdiction: null,
      miles: ret.totals.totalMiles,
      message: 'Miles but no fuel purchases this quarter: without gallons there is no fleet MPG and no taxable gallons',
      purchaseId: null,
      key: `NO_PURCHASES:${q.fuelType}`,
    });
  }
  if (rates.ratesQuarter !== q.quarter) {
    flags.push({
      kind: 'RATES_FALLBACK',
      assetId: null,
      unitNumber: null,
      day: null,
      jurisdiction: null,
      miles: null,
      message: rates.ratesQuarter
        ? `The ${q.quarter} tax rates are not imported: the ${rates.ratesQuarter} rates are used until a super administrator imports them`
        : `No tax rates imported: every rate is 0`,
      purchaseId: null,
      key: `RATES_FALLBACK:${rates.ratesQuarter ?? 'none'}`,
    });
  }
  const listed: IftaFlag[] = flags.map((f) => {
    const m = markOf.get(f.key);
    return { ...f, reviewed: m ? { at: m.reviewedAt.toISOString(), by: m.reviewedByEmail, note: m.note } : null };
  });

  // The latest filing, and what moved since (fleet-wide only: a filing is the fleet's return).
  let filed: IftaReturn | null = null;
  let amendment: IftaReport['amendment'] = null;
  if (filing && fleetWide) {
    const stored = (filing.returns as Array<IftaReturn & { fuelType: string }>).find((r) => r.fuelType === q.fuelType);
    if (stored) {
      filed = { totals: stored.totals, rows: stored.rows };
      const codes = new Set([...stored.rows.map((r) => r.jurisdiction), ...ret.rows.map((r) => r.jurisdiction)]);
      const diffRows = [...codes]
        .sort()
        .map((code) => {
          const f = stored.rows.find((r) => r.jurisdiction === code);
          const c = ret.rows.find((r) => r.jurisdiction === code);
          const filedTotal = f?.total ?? 0;
          const currentTotal = c?.total ?? 0;
          return {
            jurisdiction: code,
            filedTotal,
            currentTotal,
            difference: Math.round((currentTotal - filedTotal) * 100) / 100,
            filedMiles: f?.totalMiles ?? 0,
            currentMiles: c?.totalMiles ?? 0,
          };
        })
        .filter((r) => r.difference !== 0 || r.filedMiles !== r.currentMiles);
      if (diffRows.length) amendment = { rows: diffRows, difference: Math.round((ret.totals.total - stored.totals.total) * 100) / 100 };
    }
  }

  return {
    quarter: q.quarter,
    fuelType: q.fuelType,
    from,
    to,
    dueDate,
    asOf,
    ratesQuarter: rates.ratesQuarter,
    licensee: { name: org.name, dotNumber: org.dotNumber, baseJurisdiction: org.state },
    scope: { assetId: q.assetId ?? null, groupId: q.groupId ?? null, vehicles: vehicles.length },
    ...ret,
    vehicles,
    flags: listed,
    review: { items: listed.length, unreviewed: listed.filter((f) => f.reviewed === null).length },
    cardTransactions,
    unacceptedJumps: {
      days: unaccepted.days.size,
      miles: milesOf([...unaccepted.byJur.values()].reduce((a, m) => a + m, 0)),
      jurisdictions: [...unaccepted.byJur].map(([jurisdiction, m]) => ({ jurisdiction, miles: milesOf(m) })).sort((a, b) => b.miles - a.miles),
    },
    units,
    timeZone,
    filing: filing ? { version: filing.version, filedAt: filing.filedAt, filedBy: filing.filedBy, amended: filing.version > 1 } : null,
    filed,
    amendment,
    boundaryDataset: BOUNDARY_DATASET,
  };
}

/**
 * An impossible jump's metres per jurisdiction: as counted (issue 46), or for a stretch counted
 * before they were kept, its metres shared evenly among the jurisdictions it names.
 */
function jumpPieces(metres: number, js: string[] | string, jm: Record<string, number> | string | null): Array<[string, number]> {
  const parsed = typeof jm === 'string' ? (JSON.parse(jm) as Record<string, number>) : jm;
  if (parsed && Object.keys(parsed).length) return Object.entries(parsed).map(([k, v]) => [k, Number(v)]);
  const codes = [
    ...new Set(
      Array.isArray(js)
        ? js
        : js
            .replace(/^\{|\}$/g, '')
            .split(',')
            .filter(Boolean),
    ),
  ];
  return codes.length ? codes.map((c) => [c, metres / codes.length]) : [];
}
