import type { PayAdjustment, PayAdjustmentInput, PayProfile, PayProfileInput, PayRates } from '@fleet/api-contract';
import { notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { logDateOf, periodStartOf } from '../hos/index.ts';
import { NO_PAY, type StoredRates } from './settlement-pay.ts';
import * as repo from './settlements.repository.ts';

// Pay profiles and adjustments (issue 70, decision 0294): the office sets each driver's rates and
// the deductions and reimbursements their settlements carry. Every change has its activity row,
// written on the driver, in the transaction that makes it.

const fromCents = (c: number) => Math.round(c) / 100;
const toCents = (v: number) => Math.round(v * 100);

/** Stored units to the API's (mills a mile to money a mile, basis points to a percent). */
export function ratesOut(r: StoredRates): Omit<PayRates, 'notes'> {
  return {
    loadedMileRate: r.loadedMileMills / 1000,
    emptyMileRate: r.emptyMileMills / 1000,
    lineHaulPercent: r.lineHaulBp / 100,
    flatPerLoad: fromCents(r.flatPerLoadCents),
    extraStopRate: fromCents(r.extraStopCents),
    hourlyRate: fromCents(r.hourlyCents),
    hourlyBasis: r.hourlyBasis,
    detentionRate: fromCents(r.detentionCentsPerHour),
    detentionFreeMinutes: r.detentionFreeMinutes,
    teamSharePercent: r.teamSharePercent,
  };
}

export function ratesIn(p: PayRates): StoredRates {
  return {
    loadedMileMills: Math.round(p.loadedMileRate * 1000),
    emptyMileMills: Math.round(p.emptyMileRate * 1000),
    lineHaulBp: Math.round(p.lineHaulPercent * 100),
    flatPerLoadCents: toCents(p.flatPerLoad),
    extraStopCents: toCents(p.extraStopRate),
    hourlyCents: toCents(p.hourlyRate),
    hourlyBasis: p.hourlyBasis,
    detentionCentsPerHour: toCents(p.detentionRate),
    detentionFreeMinutes: p.detentionFreeMinutes,
    teamSharePercent: p.teamSharePercent,
  };
}

/** A stored profile's rates (NO_PAY without one). */
export const storedRates = (row: repo.ProfileRow | undefined): StoredRates =>
  row
    ? {
        loadedMileMills: row.loadedMileMills,
        emptyMileMills: row.emptyMileMills,
        lineHaulBp: row.lineHaulBp,
        flatPerLoadCents: row.flatPerLoadCents,
        extraStopCents: row.extraStopCents,
        hourlyCents: row.hourlyCents,
        hourlyBasis: row.hourlyBasis,
        detentionCentsPerHour: row.detentionCentsPerHour,
        detentionFreeMinutes: row.detentionFreeMinutes,
        teamSharePercent: row.teamSharePercent,
      }
    : NO_PAY;

/** Who did it, as a record keeps it: a person's name, or the API token's (a token acts for the organization, never as its maker). */
export async function whoOf(s: Scope): Promise<string | null> {
  if (s.actor.token) return `API token “${s.actor.token.name}”`;
  if (!s.actor.userId) return s.actor.email;
  return (await repo.personName(s.db, s.actor.userId)) ?? s.actor.email;
}

async function driverOrThrow(s: ReadScope, driverId: string) {
  const d = await repo.driverOf(s.db, s.orgId, driverId);
  if (!d) throw notFound('Driver');
  return d;
}

function presentProfile(d: repo.DriverFacts, row: repo.ProfileRow | undefined): PayProfile {
  return {
    driverId: d.id,
    driverName: `${d.firstName} ${d.lastName}`.trim(),
    ...ratesOut(storedRates(row)),
    notes: row?.notes ?? null,
    currency: 'USD',
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

export async function getPayProfile(s: ReadScope, driverId: string): Promise<PayProfile> {
  const d = await driverOrThrow(s, driverId);
  return presentProfile(d, await repo.profileOf(s.db, s.orgId, driverId));
}

/** The saved profiles of the organization (drivers without one are paid nothing). */
export async function listPayProfiles(s: ReadScope): Promise<PayProfile[]> {
  return (await repo.profilesWithDrivers(s.db, s.orgId)).map((r) => presentProfile(r.d, r.p));
}

export async function putPayProfile(s: Scope, driverId: string, input: PayProfileInput): Promise<PayProfile> {
  const d = await driverOrThrow(s, driverId);
  const by = await whoOf(s);
  const rates = ratesIn(input as PayRates);
  const row = await s.db.transaction(async (tx) => {
    const before = await repo.profileOf(tx, s.orgId, driverId);
    const saved = await repo.saveProfile(tx, { organizationId: s.orgId, driverId, ...rates, notes: input.notes ?? null, updatedAt: new Date(), updatedBy: by });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE_PAY_PROFILE',
      entityType: 'DRIVER',
      entityId: driverId,
      before: before ? { ...ratesOut(storedRates(before)), notes: before.notes } : undefined,
      after: { ...ratesOut(rates), notes: input.notes ?? null },
    });
    return saved;
  });
  return presentProfile(d, row);
}

function presentAdjustment(r: Awaited<ReturnType<typeof repo.adjustmentsOf>>[number]): PayAdjustment {
  const a = r.a;
  return {
    id: a.id,
    driverId: a.driverId,
    adjustmentType: a.type,
    adjustmentCategory: a.category,
    description: a.description,
    amount: fromCents(a.amountCents),
    recurrence: a.recurrence,
    startsOn: a.startsOn,
    endsOn: a.endsOn,
    createdAt: a.createdAt.toISOString(),
    createdBy: a.createdBy,
    appliedIn: a.appliedSettlementId && r.appliedNumber ? { id: a.appliedSettlementId, number: r.appliedNumber } : null,
    timesApplied: Number(r.times),
  };
}

/** The driver's deductions and reimbursements not removed, newest first. */
export async function listAdjustments(s: ReadScope, driverId: string): Promise<PayAdjustment[]> {
  await driverOrThrow(s, driverId);
  return (await repo.adjustmentsOf(s.db, s.orgId, driverId, false)).map(presentAdjustment);
}

export async function addAdjustment(s: Scope, driverId: string, input: PayAdjustmentInput): Promise<PayAdjustment> {
  const d = await driverOrThrow(s, driverId);
  const by = await whoOf(s);
  // From today (the driver's log day) unless dated.
  const startsOn = input.startsOn ?? logDateOf(s.now ?? Date.now(), d.homeTimeZone, await periodStartOf(s.db, s.orgId));
  const id = await s.db.transaction(async (tx) => {
    const row = await repo.insertAdjustment(tx, {
      organizationId: s.orgId,
      driverId,
      type: input.adjustmentType,
      category: input.adjustmentCategory,
      description: input.description,
      amountCents: toCents(input.amount),
      recurrence: input.recurrence,
      startsOn,
      endsOn: input.endsOn ?? null,
      createdBy: by,
    });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'ADD_PAY_ADJUSTMENT',
      entityType: 'DRIVER',
      entityId: driverId,
      after: { adjustmentType: row.type, description: row.description, amount: input.amount, recurrence: row.recurrence, startsOn, endsOn: row.endsOn },
    });
    return row.id;
  });
  const all = await repo.adjustmentsOf(s.db, s.orgId, driverId, true);
  return presentAdjustment(all.find((r) => r.a.id === id)!);
}

/** Removes an adjustment: no later settlement takes it; the settlements that did keep their line. */
export async function removeAdjustment(s: Scope, driverId: string, adjustmentId: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    const a = await repo.adjustmentOf(tx, s.orgId, driverId, adjustmentId, true);
    if (!a || a.removedAt) throw notFound('Adjustment');
    await repo.removeAdjustment(tx, s.orgId, adjustmentId, new Date());
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'REMOVE_PAY_ADJUSTMENT',
      entityType: 'DRIVER',
      entityId: driverId,
      before: { adjustmentType: a.type, description: a.description, amount: fromCents(a.amountCents), recurrence: a.recurrence },
    });
  });
}
