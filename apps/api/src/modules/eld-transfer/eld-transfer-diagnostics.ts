import { and, eq, inArray, sql } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents } from '../../db/schema/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { logDateOf, periodStartOf, transitionCode } from '../hos/index.ts';

// The data transfer diagnostic (code 4) and malfunction (code S) of 4.6.1.7 (decision 0185). The
// transfer mechanism is the server's, used by every driver's ELD, so a failed self-check is recorded
// for each driver as a type-7 record of the driver's own ELD: driver set, no vehicle, origin
// automatic, the driver's next sequence id (under the driver row's lock, as every writer of the
// driver's records takes it), the measure in the annotation. The driver screen, the office's
// diagnostics list, the log day and the output file read them with the vehicles' ones.

export const DATA_TRANSFER_DIAGNOSTIC = '4';
export const DATA_TRANSFER_MALFUNCTION = 'S';
const DAY_MS = 86_400_000;
/** A diagnostic still failing this long after the first failed check becomes the malfunction (4.6.1.7). */
export const MALFUNCTION_AFTER_MS = 3 * DAY_MS;

export interface CheckFact {
  checkedAt: number;
  ok: boolean;
  detail: string | null;
}

export interface TransferVerdict {
  /** Code -> in force, with the words recorded when it is logged or cleared. */
  codes: Array<{ code: typeof DATA_TRANSFER_DIAGNOSTIC | typeof DATA_TRANSFER_MALFUNCTION; active: boolean; detail: string }>;
}

/**
 * What the checks say (pure): nothing before the first check; after a success neither code; after a
 * failure the diagnostic, and the malfunction once a check fails 3 days or more after the first
 * failure of the run of failures (`streakStart`, the oldest failed check since the last success).
 */
export function transferVerdict(latest: CheckFact | null, streakStart: number | null): TransferVerdict | null {
  if (!latest) return null;
  const at = new Date(latest.checkedAt).toISOString();
  if (latest.ok) {
    const detail = `The check of the data transfer mechanism succeeded at ${at}`;
    return {
      codes: [
        { code: DATA_TRANSFER_DIAGNOSTIC, active: false, detail },
        { code: DATA_TRANSFER_MALFUNCTION, active: false, detail },
      ],
    };
  }
  const since = streakStart ?? latest.checkedAt;
  const failing = latest.checkedAt - since;
  const why = latest.detail ? `: ${latest.detail}` : '';
  return {
    codes: [
      { code: DATA_TRANSFER_DIAGNOSTIC, active: true, detail: `The check of the data transfer mechanism failed at ${at}${why}`.slice(0, 500) },
      {
        code: DATA_TRANSFER_MALFUNCTION,
        active: failing >= MALFUNCTION_AFTER_MS,
        detail: `The data transfer mechanism has failed its checks since ${new Date(since).toISOString()} (${Math.floor(failing / DAY_MS)} days)${why}`.slice(
          0,
          500,
        ),
      },
    ],
  };
}

/** Each driver's data transfer codes in force: the newest of the driver's own type-7 records per code is a "logged" one. */
async function activeTransferCodes(db: DbOrTx, orgId: string): Promise<Map<string, Set<string>>> {
  const rows = rowsOf<{ driver_id: string; diagnostic_code: string; event_code: number }>(
    await db.execute(sql`
      select distinct on (driver_id, diagnostic_code) driver_id, diagnostic_code, event_code from hos_events
      where organization_id = ${orgId}::uuid and event_type = ${HOS_EVENT_TYPES.MALFUNCTION} and driver_id is not null and vehicle_id is null
        and diagnostic_code in (${DATA_TRANSFER_DIAGNOSTIC}, ${DATA_TRANSFER_MALFUNCTION})
      order by driver_id, diagnostic_code, event_time desc, sequence_id desc`),
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (Number(r.event_code) !== 1 && Number(r.event_code) !== 3) continue;
    const set = out.get(r.driver_id) ?? new Set<string>();
    set.add(r.diagnostic_code);
    out.set(r.driver_id, set);
  }
  return out;
}

/**
 * Brings the organization's drivers to the verdict: logs a code for each active driver without it,
 * clears it for each driver that has it (active or not) when it no longer holds. Returns what it wrote.
 */
export async function recordTransferDiagnostics(db: Db, orgId: string, verdict: TransferVerdict, now: number): Promise<{ logged: number; cleared: number }> {
  const [list, inForce] = await Promise.all([
    db
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.status, 'ACTIVE'))),
    activeTransferCodes(db, orgId),
  ]);
  const active = new Set(list.map((d) => d.id));
  const wanted = (driverId: string) =>
    verdict.codes.filter((c) => c.active !== (inForce.get(driverId)?.has(c.code) ?? false) && (c.active ? active.has(driverId) : true));
  const touched = [...new Set([...active, ...inForce.keys()])].filter((d) => wanted(d).length > 0);
  if (touched.length === 0) return { logged: 0, cleared: 0 };
  const periodStart = await periodStartOf(db, orgId);
  return db.transaction(async (tx) => {
    // The driver rows' locks serialize writers of their records (sequence ids). By the organization
    // too: Citus takes a row lock on one shard only.
    const locked = await tx
      .select({ id: drivers.id, zone: drivers.homeTimeZone })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, touched)))
      .orderBy(drivers.id)
      .for('no key update');
    // Read again under the locks: another instance may have written the same change meanwhile.
    const current = await activeTransferCodes(tx, orgId);
    const seqRows = rowsOf<{ driver_id: string; n: number | null }>(
      await tx.execute(
        sql`select driver_id, max(sequence_id) as n from hos_events where organization_id = ${orgId}::uuid and driver_id = any(${`{${touched.join(',')}}`}::uuid[]) group by driver_id`,
      ),
    );
    const seq = new Map(seqRows.map((r) => [r.driver_id, Number(r.n ?? 0)]));
    const rows: Array<typeof hosEvents.$inferInsert> = [];
    for (const d of locked) {
      for (const c of verdict.codes) {
        const has = current.get(d.id)?.has(c.code) ?? false;
        if (c.active === has || (c.active && !active.has(d.id))) continue;
        const n = (seq.get(d.id) ?? 0) + 1;
        seq.set(d.id, n);
        rows.push({
          organizationId: orgId,
          driverId: d.id,
          vehicleId: null,
          sequenceId: n,
          eventType: HOS_EVENT_TYPES.MALFUNCTION,
          eventCode: transitionCode(c.code, c.active),
          recordStatus: HOS_RECORD_STATUSES.ACTIVE,
          recordOrigin: HOS_RECORD_ORIGINS.AUTOMATIC,
          eventTime: new Date(now),
          logDate: logDateOf(now, d.zone, periodStart),
          diagnosticCode: c.code,
          annotation: c.detail,
        });
      }
    }
    if (rows.length) {
      await tx.insert(hosEvents).values(rows);
      await notifyHosChange(tx, orgId);
    }
    const logged = rows.filter((r) => r.eventCode === 1 || r.eventCode === 3).length;
    return { logged, cleared: rows.length - logged };
  });
}
