import { and, asc, eq, sql } from 'drizzle-orm';
import { terminalAddress, type Page, type Terminal, type terminalInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { drivers, terminals } from '../../db/schema/index.ts';
import { conflict } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { driverCountOf, findTerminal, type TerminalRow } from './terminals.repository.ts';

// The organization's home terminals (issue 46, decision 0188): kept in settings, read by the
// drivers' form and the HoS log header. A terminal's zone is its drivers' home time zone: changing
// it moves theirs in the same transaction, so a log day is always counted in its terminal's zone.

type Input = z.output<typeof terminalInputSchema>;

const SORTS = {
  name: sql`lower(${terminals.name})`,
  city: sql`lower(${terminals.city})`,
  state: terminals.state,
  timeZone: terminals.timeZone,
  createdAt: terminals.createdAt,
};

function present(t: TerminalRow, driverCount: number): Terminal {
  return {
    id: t.id,
    organizationId: t.organizationId,
    name: t.name,
    addressLine1: t.addressLine1,
    city: t.city,
    state: t.state,
    postalCode: t.postalCode,
    timeZone: t.timeZone,
    address: terminalAddress(t),
    driverCount,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** A page of the organization's terminals, by name unless sorted otherwise; search by name, address or city. */
export async function listTerminals({ db, orgId }: ReadScope, q: { page: number; size: number; sort?: string; search?: string }): Promise<Page<Terminal>> {
  const where = and(
    eq(terminals.organizationId, orgId),
    q.search
      ? sql`lower(${terminals.name} || ' ' || ${terminals.addressLine1} || ' ' || ${terminals.city} || ' ' || ${terminals.state}) like ${likeTerm(q.search)}`
      : undefined,
  );
  const [total] = await db.select({ n: countAll }).from(terminals).where(where);
  const rows = await db
    .select({ t: terminals, n: driverCountOf(orgId) })
    .from(terminals)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(terminals.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(
    rows.map((r) => present(r.t, r.n)),
    total?.n ?? 0,
    q,
  );
}

export async function getTerminal({ db, orgId }: ReadScope, terminalId: string): Promise<Terminal> {
  const t = await findTerminal(db, orgId, terminalId);
  const [n] = await db
    .select({ n: countAll })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.homeTerminalId, terminalId)));
  return present(t, n?.n ?? 0);
}

const values = (i: Input) => ({ name: i.name, addressLine1: i.addressLine1, city: i.city, state: i.state, postalCode: i.postalCode, timeZone: i.timeZone });

export async function createTerminal({ db, orgId, actor }: Scope, input: Input): Promise<Terminal> {
  try {
    const row = await db.transaction(async (tx) => {
      const [t] = await tx
        .insert(terminals)
        .values({ organizationId: orgId, ...values(input) })
        .returning();
      if (!t) throw new Error('terminal insert returned nothing');
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'TERMINAL', entityId: t.id, after: t });
      return t;
    });
    return present(row, 0);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

/**
 * Edits a terminal. A new time zone becomes its drivers' home time zone too (their log days are
 * counted in it from then on, as when a driver's own zone is edited).
 */
export async function updateTerminal({ db, orgId, actor }: Scope, terminalId: string, input: Input): Promise<Terminal> {
  try {
    await db.transaction(async (tx) => {
      const before = await findTerminal(tx, orgId, terminalId, true);
      const now = new Date();
      const [after] = await tx
        .update(terminals)
        .set({ ...values(input), updatedAt: now })
        .where(and(eq(terminals.organizationId, orgId), eq(terminals.id, terminalId)))
        .returning();
      let moved = 0;
      if (before.timeZone !== input.timeZone) {
        const rows = await tx
          .update(drivers)
          .set({ homeTimeZone: input.timeZone, updatedAt: now })
          .where(and(eq(drivers.organizationId, orgId), eq(drivers.homeTerminalId, terminalId)))
          .returning({ id: drivers.id });
        moved = rows.length;
      }
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'UPDATE',
        entityType: 'TERMINAL',
        entityId: terminalId,
        before,
        after: { ...after, ...(moved ? { driversMoved: moved } : {}) },
      });
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getTerminal({ db, orgId }, terminalId);
}

/** Deletes a terminal no driver belongs to; one in use is refused (409) naming how many drivers to move first. */
export async function deleteTerminal({ db, orgId, actor }: Scope, terminalId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findTerminal(tx, orgId, terminalId, true);
    const [used] = await tx
      .select({ n: countAll })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.homeTerminalId, terminalId)));
    const n = used?.n ?? 0;
    if (n > 0) {
      throw conflict(
        `${before.name} is the home terminal of ${n} driver${n === 1 ? '' : 's'}: give ${n === 1 ? 'that driver' : 'them'} another home terminal before deleting it`,
        `terminal in use by ${n} driver(s)`,
      );
    }
    await tx.delete(terminals).where(and(eq(terminals.organizationId, orgId), eq(terminals.id, terminalId)));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'TERMINAL', entityId: terminalId, before });
  });
}
