import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { organizations } from '../../../db/schema/index.ts';
import { engineColumns } from './engine-data.ts';
import { checkFix, FixError, timeToStore } from './fix-check.ts';
import { hashIngestToken, TTL_MS } from './gateway-directory.ts';
import { noteRefusal, noteWriteRefusals, type Ingest } from './ingest.service.ts';
import type { PositionRow } from './position-row.ts';
import { decodeTraccarJson } from './traccar.decoder.ts';
import { storedSpeed } from '../../../lib/stored-speed.ts';

// Traccar's JSON forwarding (decision 0154): a Traccar server decodes any of its protocols and posts
// each position here with the organization's ingest token. Devices are matched by unique id within
// that organization only: a token never writes to another carrier's device.

/** Traccar's forward.header sends the header as written: `Authorization: <token>` or `Bearer <token>`. */
export function tokenOf(header: string | undefined): string {
  const h = (header ?? '').trim();
  return /^bearer\s+/i.test(h) ? h.replace(/^bearer\s+/i, '').trim() : h;
}

interface Entry {
  at: number;
  orgId: string | null;
}

/**
 * Organization by forwarding token, remembered for TTL_MS (one request per forwarded position):
 * a rotated token stops working on every instance within that time.
 */
export class OrgIngestTokens {
  private readonly byHash = new Map<string, Entry>();
  private readonly usedAt = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly max = 10_000,
  ) {}

  async organizationOf(token: string): Promise<string | null> {
    if (!token) return null;
    const hash = hashIngestToken(token);
    const hit = this.byHash.get(hash);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.orgId;
    const [row] = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(sql`${organizations.ingestTokenHash} = ${hash} and ${organizations.status} = 'ACTIVE'`);
    this.byHash.delete(hash);
    // Made-up tokens are remembered too, within a bounded map.
    if (this.byHash.size >= this.max) this.byHash.delete(this.byHash.keys().next().value!);
    this.byHash.set(hash, { at: Date.now(), orgId: row?.id ?? null });
    return row?.id ?? null;
  }

  /** "Last used" on the settings screen: written at most once a minute per organization. */
  async touch(orgId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.usedAt.get(orgId) ?? 0) < 60_000) return;
    this.usedAt.set(orgId, now);
    await this.db
      .update(organizations)
      .set({ ingestTokenLastUsedAt: new Date(now) })
      .where(eq(organizations.id, orgId));
  }
}

export interface TraccarReply {
  status: 200 | 400 | 401 | 404;
  error?: { message: string; technicalMessage: string };
  /** False: the same device and fix time were stored before (a resend), or the position was refused. */
  stored?: boolean;
  /** Why the position was refused for its content (answered 200 all the same). */
  refused?: string;
}

const fail = (status: TraccarReply['status'], message: string, technicalMessage = message): TraccarReply => ({ status, error: { message, technicalMessage } });

/**
 * 200 after the group commit, and 200 for a position refused for its content (an impossible time or
 * value: counted and listed on the device's page), since Traccar's forwarder sends a position again
 * until it is answered 200 (forward.retry) and one refused position would hold back the queue.
 * 400 for a body that is no forwarded position at all (no device named); 404 for a device not in the
 * token's organization. A failure to store throws (a 5xx: Traccar sends it again).
 */
export async function handleTraccar(ingest: Ingest, orgId: string, body: unknown, remoteAddress: string | null, now = new Date()): Promise<TraccarReply> {
  const decoded = decodeTraccarJson(body);
  const uniqueId = decoded.kind === 'fix' ? decoded.fix.uniqueId : decoded.uniqueId;
  if (uniqueId === undefined) {
    const e = decoded as { field: string; message: string };
    return fail(400, e.message, `${e.field}: ${e.message}`);
  }
  const found = await ingest.directory.byUniqueId(uniqueId);
  // Another organization's device answers as an unknown one: the token's owner learns nothing of it.
  const gw = found && found.orgId === orgId ? found : null;
  if (!gw) {
    ingest.unknownDevices.note(uniqueId, 'traccar', orgId, remoteAddress);
    return fail(404, `Unknown device ${uniqueId}`, `device.uniqueId: no active device with unique id ${uniqueId} in this organization`);
  }
  if (decoded.kind === 'error') {
    const reason = decoded.field.endsWith('Time') ? 'badTime' : decoded.field.includes('itude') ? 'coordinates' : 'value';
    noteRefusal(ingest, gw, 'traccar', new FixError(decoded.field, decoded.message, reason), null, now);
    return { status: 200, stored: false, refused: decoded.message };
  }
  const fix = { ...decoded.fix, fixTime: timeToStore(gw.useReceivedTime, decoded.fix.fixTime, now)! };
  try {
    checkFix(
      {
        latitude: fix.latitude,
        longitude: fix.longitude,
        fixTime: fix.fixTime,
        speed: fix.speed,
        course: fix.course,
        altitude: fix.altitude,
        accuracy: fix.accuracy,
      },
      now.getTime(),
    );
  } catch (err) {
    if (!(err instanceof FixError)) throw err;
    const field = { lat: 'position.latitude', lon: 'position.longitude', timestamp: 'position.fixTime' }[err.field] ?? `position.${err.field}`;
    noteRefusal(ingest, gw, 'traccar', new FixError(field, err.message, err.reason), fix.fixTime, now);
    return { status: 200, stored: false, refused: `${field}: ${err.message}` };
  }
  const who = await ingest.directory.attribution(gw, fix.fixTime);
  const row: PositionRow = {
    organizationId: gw.orgId,
    gatewayId: gw.id,
    assetId: who.assetId,
    driverId: who.driverId,
    fixTime: fix.fixTime,
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: storedSpeed(fix.speed),
    course: fix.course,
    altitude: fix.altitude,
    accuracy: fix.accuracy,
    ...engineColumns(fix.attributes),
    protocol: 'traccar',
    attributes: fix.attributes,
  };
  const { stored, refused } = await ingest.committer.write([row]);
  noteWriteRefusals(ingest, gw, [row], refused, now);
  if (refused?.[0]) return { status: 200, stored: false, refused: `position.${refused[0].field}: ${refused[0].message}` };
  ingest.refusedFixes?.observe?.({ organizationId: gw.orgId, gatewayId: gw.id, receivedAt: now, fixTime: row.fixTime });
  return { status: 200, stored: stored[0] ?? false };
}
