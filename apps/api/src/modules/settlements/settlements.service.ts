import {
  SETTLEMENT_GROUP_OF,
  type Page,
  type Settlement,
  type SettlementCreate,
  type SettlementListQuery,
  type SettlementPaid,
  type SettlementStatus,
  type SettlementSummary,
  type SettlementVoid,
} from '@fleet/api-contract';
import { conflict, conflictOn, invalidField, notFound } from '../../http/errors.ts';
import { orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { dayStartMs, logsForPeriod, nextDate, periodStartOf } from '../hos/index.ts';
import { loadedMetres } from '../loads/index.ts';
import { ratesOut, storedRates, whoOf } from './pay-profiles.service.ts';
import { statementPdf } from './settlement-pdf.ts';
import { adjustmentLines, hourLines, loadLines, stopName, totalsOf, type DraftLine, type LoadFacts, type StoredRates } from './settlement-pay.ts';
import * as repo from './settlements.repository.ts';

// Driver settlements (issue 70, decision 0294): a draft from the driver's delivered loads and log
// over their days `from`..`to` (log days in their home terminal's zone, as the log counts them),
// approved, then marked paid, or voided (which frees its loads and one-time adjustments). A load is
// settled once per driver; the days of two standing settlements of a driver never overlap, so hours
// and recurring deductions are paid or taken once. The office reads every settlement
// (SETTLEMENT_LIST); a driver reads their own once approved (LOAD_SELF_WRITE, their loads' code).

const fromCents = (c: number) => Math.round(c) / 100;
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** "Nov 18, 08:05" in `zone`. */
const clockIn = (zone: string) => {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (d: Date) => f.format(d);
};
const dayIn = (zone: string) => {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric' });
  return (d: Date) => f.format(d);
};

// ------------------------------------------------------------------------------------- reading

type Reader = { all: true } | { all: false; driverId: string | null };

/** The office reads every settlement; a driver their own, approved or paid; an API token acts for the organization only. */
async function readerOf(s: ReadScope, ctx: AuthContext): Promise<Reader> {
  if (ctx.permissions.has('SETTLEMENT_LIST')) return { all: true };
  if (ctx.token) return { all: false, driverId: null };
  return { all: false, driverId: await repo.driverIdOfUser(s.db, s.orgId, ctx.userId) };
}

const DRIVER_SEES: readonly SettlementStatus[] = ['APPROVED', 'PAID'];
const visible = (r: Reader, row: repo.SettlementRow) => r.all || (r.driverId === row.driverId && DRIVER_SEES.includes(row.status));

function summary(row: repo.SettlementRow): SettlementSummary {
  return {
    id: row.id,
    number: row.number,
    driver: { id: row.driverId, name: row.driverName },
    from: row.periodFrom,
    to: row.periodTo,
    timeZone: row.timeZone,
    status: row.status,
    currency: row.currency,
    loadCount: row.loadCount,
    totals: {
      loads: fromCents(row.loadsCents),
      detention: fromCents(row.detentionCents),
      hourly: fromCents(row.hourlyCents),
      reimbursements: fromCents(row.reimbursementCents),
      deductions: fromCents(row.deductionCents),
      gross: fromCents(row.loadsCents + row.detentionCents + row.hourlyCents),
      net: fromCents(row.netCents),
    },
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    approvedAt: iso(row.approvedAt),
    approvedBy: row.approvedBy,
    paidAt: iso(row.paidAt),
    paidBy: row.paidBy,
    paymentReference: row.paymentReference,
    voidedAt: iso(row.voidedAt),
    voidedBy: row.voidedBy,
    voidReason: row.voidReason,
  };
}

function present(row: repo.SettlementRow, loads: repo.SettlementLoadRow[], lines: repo.SettlementLineRow[]): Settlement {
  return {
    ...summary(row),
    rates: row.rates,
    loads: loads.map((l) => ({
      loadId: l.loadId,
      number: l.loadNumber,
      customer: l.customer,
      deliveredAt: l.deliveredAt.toISOString(),
      seat: l.seat,
      teammate: l.teammate,
      sharePercent: l.sharePercent,
      loadedKm: l.loadedM === null ? null : Math.round(l.loadedM) / 1000,
      emptyKm: l.emptyM === null ? null : Math.round(l.emptyM) / 1000,
      stopCount: l.stopCount,
      amount: fromCents(l.amountCents),
    })),
    lines: lines.map((l) => ({
      id: l.id,
      kind: l.kind,
      group: SETTLEMENT_GROUP_OF[l.kind],
      loadId: l.loadId,
      loadNumber: l.loadNumber,
      stopSeq: l.stopSeq,
      logDate: l.logDate,
      adjustmentId: l.adjustmentId,
      description: l.description,
      source: l.source,
      quantity: l.quantity,
      unit: l.unit,
      rate: l.rate,
      base: l.baseCents === null ? null : fromCents(l.baseCents),
      distanceKm: l.distanceM === null ? null : Math.round(l.distanceM) / 1000,
      sharePercent: l.sharePercent,
      amount: fromCents(l.amountCents),
    })),
  };
}

export async function listSettlements(s: ReadScope, ctx: AuthContext, q: SettlementListQuery): Promise<Page<SettlementSummary>> {
  const reader = await readerOf(s, ctx);
  let statuses = q.status ? (q.status.split(',') as SettlementStatus[]) : undefined;
  let driverId = q.driverId;
  if (!reader.all) {
    // A driver's own, approved or paid, whatever the query names.
    if (!reader.driverId) return toPage([], 0, q);
    driverId = reader.driverId;
    statuses = (statuses ?? DRIVER_SEES).filter((st) => DRIVER_SEES.includes(st));
    if (statuses.length === 0) return toPage([], 0, q);
  }
  const order = q.sort ? orderBy(q.sort, repo.SETTLEMENT_SORTS, 'from', repo.tieBreak) : repo.defaultOrder();
  const { rows, total } = await repo.listSettlements(s.db, s.orgId, { driverId, statuses }, order, q);
  return toPage(rows.map(summary), total, q);
}

async function readable(s: ReadScope, ctx: AuthContext, id: string): Promise<repo.SettlementRow> {
  const row = await repo.settlementOf(s.db, s.orgId, id);
  if (!row || !visible(await readerOf(s, ctx), row)) throw notFound('Settlement');
  return row;
}

export async function getSettlement(s: ReadScope, ctx: AuthContext, id: string): Promise<Settlement> {
  const row = await readable(s, ctx, id);
  return full(s, row);
}

async function full(s: ReadScope, row: repo.SettlementRow): Promise<Settlement> {
  const [loads, lines] = await Promise.all([repo.loadsOf(s.db, s.orgId, row.id), repo.linesOf(s.db, s.orgId, row.id)]);
  return present(row, loads, lines);
}

/** The statement's PDF (a driver: their own, approved or paid). */
export async function statementFile(s: ReadScope, ctx: AuthContext, id: string): Promise<{ name: string; body: Buffer }> {
  const st = await getSettlement(s, ctx, id);
  const org = await repo.organizationOf(s.db, s.orgId);
  if (!org) throw notFound('Organization');
  return { name: `pay-statement-${st.number}.pdf`, body: await statementPdf(st, org) };
}

// ------------------------------------------------------------------------------------- making

interface Span {
  fromMs: number;
  toMs: number;
  zone: string;
}

/** The load's facts a draft is figured from: stops, the empty leg from the driver's previous delivery, the share. */
async function loadFacts(tx: Parameters<typeof repo.stopsOf>[0], orgId: string, driverId: string, loads: repo.LoadRow[], rates: StoredRates, zone: string) {
  const stops = await repo.stopsOf(
    tx,
    orgId,
    loads.map((l) => l.id),
  );
  const day = dayIn(zone);
  const out: Array<{ load: repo.LoadRow; facts: LoadFacts; seat: 'LEAD' | 'CO_DRIVER'; teammateId: string | null }> = [];
  for (const load of loads) {
    const list = stops.get(load.id) ?? [];
    const first = list[0];
    let empty: LoadFacts['empty'] = null;
    if (first) {
      // The empty leg runs from where the driver last delivered before this pick-up began.
      const startedAt = (first.arrivedAt ?? first.windowStart).getTime();
      const prev = await repo.deliveryBefore(tx, orgId, driverId, startedAt, load.id);
      const prevLast = prev ? (await repo.stopsOf(tx, orgId, [prev.id])).get(prev.id)?.at(-1) : undefined;
      if (prev && prevLast)
        empty = {
          metres: loadedMetres([prevLast, first]),
          fromLoad: prev.number,
          fromPlace: stopName(prevLast),
          deliveredOn: day(prev.deliveredAt!),
        };
    }
    const seat = load.driverId === driverId ? 'LEAD' : 'CO_DRIVER';
    const teammateId = seat === 'LEAD' ? load.coDriverId : load.driverId;
    out.push({
      load,
      seat,
      teammateId,
      facts: {
        id: load.id,
        number: load.number,
        lineHaulCents: load.lineHaulCents,
        loadedM: load.loadedM,
        stops: list.map((st) => ({
          id: st.id,
          seq: st.seq,
          kind: st.kind,
          arrivedAt: st.arrivedAt,
          departedAt: st.departedAt,
          placeName: st.placeName,
          address: st.address,
          latitude: st.latitude,
          longitude: st.longitude,
        })),
        empty,
        sharePercent: teammateId ? rates.teamSharePercent : 100,
      },
    });
  }
  return out;
}

/** The driver's days as instants, checked: the last day must have ended. */
async function spanOf(s: ReadScope, driver: repo.DriverFacts, input: SettlementCreate): Promise<Span> {
  const periodStart = await periodStartOf(s.db, s.orgId);
  const zone = driver.homeTimeZone;
  const span = { fromMs: dayStartMs(input.from, zone, periodStart), toMs: dayStartMs(nextDate(input.to), zone, periodStart), zone };
  if (span.toMs > (s.now ?? Date.now())) throw invalidField('to', `The settlement's last day has not ended yet (the driver's days are counted in ${zone})`);
  return span;
}

/** POST settlements: a draft for the driver's days, from their delivered loads, their log and their adjustments. */
export async function createSettlement(s: Scope, input: SettlementCreate): Promise<Settlement> {
  const driver = await repo.driverOf(s.db, s.orgId, input.driverId);
  if (!driver) throw invalidField('driverId', 'Driver not found in this organization');
  const span = await spanOf(s, driver, input);
  const profile = await repo.profileOf(s.db, s.orgId, driver.id);
  const rates = storedRates(profile);
  // Hours from the driver's own log, read before the transaction (the read files missing log days, as the daily list does).
  const hours =
    rates.hourlyCents > 0
      ? (await logsForPeriod({ db: s.db, orgId: s.orgId, now: s.now ?? Date.now() }, driver.id, { from: input.from, to: input.to })).days.map((d) => ({
          date: d.date,
          onMs: d.totals.ON,
          drivingMs: d.totals.D,
        }))
      : [];
  const by = await whoOf(s);
  const name = `${driver.firstName} ${driver.lastName}`.trim();
  const id = await s.db.transaction(async (tx) => {
    // One settlement of a driver at a time: the second waits here, then sees the first's days and loads.
    await repo.driverOf(tx, s.orgId, driver.id, true);
    const clash = await repo.overlapping(tx, s.orgId, driver.id, input.from, input.to);
    if (clash)
      throw conflictOn(
        'from',
        `Settlement ${clash.number} (${clash.periodFrom} to ${clash.periodTo}) already covers some of these days: void it first, or choose other days`,
      );
    const loads = await repo.unsettledDeliveries(tx, s.orgId, driver.id, span.fromMs, span.toMs);
    const facts = await loadFacts(tx, s.orgId, driver.id, loads, rates, span.zone);
    const teammates = await repo.driverNames(
      tx,
      s.orgId,
      facts.flatMap((f) => (f.teammateId ? [f.teammateId] : [])),
    );
    const clock = clockIn(span.zone);
    const perLoad = facts.map((f) => ({ ...f, lines: loadLines(f.facts, rates, clock) }));
    const due = await repo.adjustmentsDue(tx, s.orgId, driver.id, input.from, input.to);
    const lines: DraftLine[] = [...perLoad.flatMap((f) => f.lines), ...hourLines(hours, rates), ...adjustmentLines(due)];
    const totals = totalsOf(lines);
    const number = await repo.nextNumber(tx, s.orgId);
    const row = await repo.insertSettlement(tx, {
      organizationId: s.orgId,
      number,
      driverId: driver.id,
      driverName: name,
      periodFrom: input.from,
      periodTo: input.to,
      timeZone: span.zone,
      rates: ratesOut(rates),
      loadCount: loads.length,
      ...totals,
      createdAt: new Date(s.now ?? Date.now()),
      createdBy: by,
    });
    await repo.insertSettlementLoads(
      tx,
      perLoad.map((f) => ({
        organizationId: s.orgId,
        settlementId: row.id,
        loadId: f.load.id,
        driverId: driver.id,
        loadNumber: f.load.number,
        customer: f.load.customer,
        deliveredAt: f.load.deliveredAt!,
        seat: f.seat,
        teammate: f.teammateId ? (teammates.get(f.teammateId) ?? null) : null,
        sharePercent: f.facts.sharePercent,
        loadedM: f.load.loadedM,
        emptyM: f.facts.empty?.metres ?? null,
        stopCount: f.facts.stops.length,
        amountCents: f.lines.reduce((sum, l) => sum + l.amountCents, 0),
      })),
    );
    await repo.insertLines(tx, s.orgId, row.id, lines);
    const once = due.filter((a) => a.recurrence === 'ONCE').map((a) => a.id);
    // Locked above, so none was taken since: each one-time adjustment goes to this settlement only.
    if ((await repo.markApplied(tx, s.orgId, once, row.id)) !== once.length) throw conflict('An adjustment was just applied elsewhere: try again');
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'CREATE',
      entityType: 'SETTLEMENT',
      entityId: row.id,
      after: { number, driverId: driver.id, from: input.from, to: input.to, loads: loads.length, net: fromCents(totals.netCents) },
    });
    return row.id;
  });
  return full(s, (await repo.settlementOf(s.db, s.orgId, id))!);
}

// ------------------------------------------------------------------------------------- the steps

type Step = 'approve' | 'paid' | 'void';
const STEP: Record<Step, { from: readonly SettlementStatus[]; to: SettlementStatus; action: string; refusal: (row: repo.SettlementRow) => string }> = {
  approve: {
    from: ['DRAFT'],
    to: 'APPROVED',
    action: 'APPROVE_SETTLEMENT',
    refusal: (r) => `Settlement ${r.number} is ${r.status.toLowerCase()}: only a draft is approved`,
  },
  paid: {
    from: ['APPROVED'],
    to: 'PAID',
    action: 'PAY_SETTLEMENT',
    refusal: (r) =>
      r.status === 'DRAFT' ? `Settlement ${r.number} is a draft: approve it before marking it paid` : `Settlement ${r.number} is ${r.status.toLowerCase()}`,
  },
  void: {
    from: ['DRAFT', 'APPROVED'],
    to: 'VOID',
    action: 'VOID_SETTLEMENT',
    refusal: (r) =>
      r.status === 'PAID'
        ? `Settlement ${r.number} is paid and stays as paid: correct it with a deduction or reimbursement on the next settlement`
        : `Settlement ${r.number} is already void`,
  },
};

async function step(s: Scope, id: string, which: Step, extra: Partial<repo.SettlementRow>): Promise<Settlement> {
  const rule = STEP[which];
  const by = await whoOf(s);
  const at = new Date(s.now ?? Date.now());
  await s.db.transaction(async (tx) => {
    const before = await repo.settlementOf(tx, s.orgId, id, true);
    if (!before) throw notFound('Settlement');
    if (!rule.from.includes(before.status)) throw conflictOn('status', rule.refusal(before));
    const stamp = which === 'approve' ? { approvedAt: at, approvedBy: by } : which === 'paid' ? { paidAt: at, paidBy: by } : { voidedAt: at, voidedBy: by };
    await repo.updateSettlement(tx, s.orgId, id, { status: rule.to, ...stamp, ...extra });
    if (which === 'void') await repo.release(tx, s.orgId, id);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: rule.action,
      entityType: 'SETTLEMENT',
      entityId: id,
      before: { number: before.number, status: before.status },
      after: { number: before.number, status: rule.to, ...extra },
    });
  });
  return full(s, (await repo.settlementOf(s.db, s.orgId, id))!);
}

export const approveSettlement = (s: Scope, id: string) => step(s, id, 'approve', {});
export const markPaid = (s: Scope, id: string, body: SettlementPaid) => step(s, id, 'paid', { paymentReference: body.paymentReference ?? null });
export const voidSettlement = (s: Scope, id: string, body: SettlementVoid) => step(s, id, 'void', { voidReason: body.voidReason ?? null });
