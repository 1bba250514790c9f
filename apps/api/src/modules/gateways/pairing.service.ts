import { and, desc, eq, isNotNull, isNull, max, ne } from 'drizzle-orm';
import type { GatewayDetail } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { gatewayPairings, gateways } from '../../db/schema/index.ts';
import { conflict, invalidField } from '../../http/errors.ts';
import type { Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { assetLabel, lockAsset, unpairInTx } from '../assets/index.ts';
import { getGatewayDetail, lockGateway } from './gateways.repository.ts';
import { attributeDevicePositions, type PositionRow, TTL_MS } from '../positions/index.ts';

/** What pairing tells ingest: forget the cached device, take positions that now belong to a vehicle. */
export interface PairingHooks {
  forgetDevice(gatewayId: string): void;
  /** Positions stored earlier, now the vehicle's (each handed to the work behind ingest as late positions). */
  attributed(rows: readonly PositionRow[]): void;
  /** How long other instances may still attribute by the old pairing (one sweep runs after it). */
  sweepAfterMs?: number;
}

/** A browser's clock a little ahead of the server's is "now", not the future. */
const CLOCK_SKEW_MS = 60_000;

const at = (d: Date) => d.toISOString();

/**
 * Pairs a device with a vehicle: one device per vehicle at a time. A device paired elsewhere is
 * moved (its old pairing closed); a vehicle that already has another device answers 409.
 * `from` (default now) starts the pairing in the past: the positions the device sent since then
 * that belong to no vehicle become the vehicle's (and its driver's at their fix time), and the work
 * behind ingest recomputes the days they touch. It may not be in the future, nor before the
 * device's previous pairing ended or the vehicle's previous device was unpaired. Pairing the
 * device again with its own vehicle and an earlier `from` moves the pairing's start back.
 */
export async function pairDevice(
  { db, orgId, actor }: Scope,
  gatewayId: string,
  assetId: string,
  body: { from?: string | undefined } = {},
  hooks?: PairingHooks,
): Promise<GatewayDetail> {
  const now = new Date();
  const asked = body.from === undefined ? null : new Date(body.from);
  if (asked && asked.getTime() > now.getTime() + CLOCK_SKEW_MS) throw invalidField('from', 'Positions from cannot be in the future');
  const from = asked && asked < now ? asked : now;
  const attributed = await db.transaction(async (tx) => {
    const g = await lockGateway(tx, orgId, gatewayId);
    if (g.status !== 'ACTIVE') throw conflict(`Device ${g.name} is inactive; reactivate it first`);
    const vehicle = await lockAsset(tx, orgId, assetId, 'Vehicle');
    if (vehicle.type !== 'VEHICLE') throw invalidField('assetId', `${assetLabel(vehicle)} is a trailer; devices pair with vehicles`);
    if (vehicle.status !== 'ACTIVE') throw conflict(`${assetLabel(vehicle)} is inactive; reactivate it first`);
    const [open] = await tx
      .select()
      .from(gatewayPairings)
      .where(and(eq(gatewayPairings.gatewayId, g.id), isNull(gatewayPairings.unpairedAt)))
      .orderBy(desc(gatewayPairings.pairedAt))
      .limit(1);
    if (g.assetId === assetId && (!asked || (open && open.pairedAt <= from))) return [];
    if (g.assetId !== assetId) {
      const [occupant] = await tx
        .select()
        .from(gateways)
        .where(and(eq(gateways.assetId, assetId), eq(gateways.organizationId, orgId)));
      if (occupant) throw conflict(`${assetLabel(vehicle)} already has device ${occupant.name} (${occupant.uniqueId}); unpair it first`);
      // Moved from another vehicle: that pairing ends now, so the positions until now are that vehicle's.
      if (g.assetId && from < new Date(now.getTime() - CLOCK_SKEW_MS)) {
        throw invalidField(
          'from',
          `Positions from must be now or later: ${g.name} is paired with another vehicle until now; unpair it first to pair from an earlier time`,
        );
      }
    }
    const [ended] = await tx
      .select({ t: max(gatewayPairings.unpairedAt) })
      .from(gatewayPairings)
      .where(and(eq(gatewayPairings.gatewayId, g.id), isNotNull(gatewayPairings.unpairedAt)));
    if (ended?.t && from < ended.t) throw invalidField('from', `Positions from must be on or after ${at(ended.t)}, when the device's previous pairing ended`);
    const [other] = await tx
      .select({ t: max(gatewayPairings.unpairedAt) })
      .from(gatewayPairings)
      .where(and(eq(gatewayPairings.assetId, assetId), ne(gatewayPairings.gatewayId, g.id), isNotNull(gatewayPairings.unpairedAt)));
    if (other?.t && from < other.t)
      throw invalidField('from', `Positions from must be on or after ${at(other.t)}, when ${assetLabel(vehicle)}'s previous device was unpaired`);

    if (g.assetId === assetId && open) {
      // Already paired: the pairing starts earlier.
      await tx.update(gatewayPairings).set({ pairedAt: from }).where(eq(gatewayPairings.id, open.id));
    } else {
      await unpairInTx(tx, orgId, actor, g, now);
      await tx.update(gateways).set({ assetId, updatedAt: now }).where(eq(gateways.id, g.id));
      await tx.insert(gatewayPairings).values({ organizationId: orgId, gatewayId: g.id, assetId, pairedAt: from });
    }
    const rows = from < now ? await attributeDevicePositions(tx, { orgId, gatewayId: g.id, assetId, from }) : [];
    for (const [entityType, entityId] of [
      ['GATEWAY', g.id],
      ['ASSET', assetId],
    ] as const) {
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'PAIR_DEVICE',
        entityType,
        entityId,
        before: { assetId: g.assetId, ...(open && g.assetId === assetId ? { from: at(open.pairedAt) } : {}) },
        after: { gatewayId: g.id, uniqueId: g.uniqueId, assetId, unitNumber: vehicle.unitNumber, from: at(from), positionsAttributed: rows.length },
      });
    }
    return rows;
  });
  if (hooks) {
    hooks.forgetDevice(gatewayId);
    hooks.attributed(attributed);
    // A fix another instance (or this one, just before the commit) attributed by the old pairing
    // is given to the vehicle by one more sweep, once every instance has read the new pairing.
    if (from < now) scheduleSweep(db, hooks, { orgId, gatewayId, assetId, from });
  }
  return getGatewayDetail(db, orgId, gatewayId);
}

function scheduleSweep(db: Db, hooks: PairingHooks, p: { orgId: string; gatewayId: string; assetId: string; from: Date }): void {
  const timer = setTimeout(
    () => {
      db.transaction((tx) => attributeDevicePositions(tx, { ...p, onlyWhilePaired: true }))
        .then((rows) => hooks.attributed(rows))
        // The database closed (shutdown, a test's end): the fixes stay stored without a vehicle.
        .catch(() => undefined);
    },
    hooks.sweepAfterMs ?? TTL_MS + 1000,
  );
  timer.unref();
}

/** Unpairs the device; nothing changes when it is not paired. */
export async function unpairDevice({ db, orgId, actor }: Scope, gatewayId: string): Promise<GatewayDetail> {
  await db.transaction(async (tx) => {
    const g = await lockGateway(tx, orgId, gatewayId);
    await unpairInTx(tx, orgId, actor, g, new Date());
  });
  return getGatewayDetail(db, orgId, gatewayId);
}
