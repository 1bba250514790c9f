import { describeLocation } from '@fleet/geo/places';
import {
  ACTIVE_LOAD_STATUSES,
  TRACKING_POSITION_AFTER_LAST_STOP_MINUTES,
  type EtaConfidence,
  type LoadStatus,
  type PublicTracking,
  type TrackingStop,
} from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { loadDocumentPdf } from '../loads/index.ts';
import { readSettings } from '../organizations/index.ts';
import { publicLoadTemperature } from '../temperatures/index.ts';
import * as repo from './tracking.repository.ts';
import { TOKEN_PATTERN, tokenHash } from './tracking-tokens.ts';

// The public tracking answer (issue 69, decision 0282): what a link's holder sees, and nothing more.
// Built field by field from the contract's shape, never from a row: no driver, hours, money, other
// load or vehicle can slip in. An unknown, malformed, expired or revoked token, or one whose load or
// vehicle is gone, all answer the same 404, so tokens cannot be probed.

const MINUTE = 60_000;
/** The truck's fix counts from a little before the load's start (its last report before leaving). */
const BEFORE_START_MS = 15 * MINUTE;

/** The one answer every link that does not show anything gets. */
export const trackingNotFound = () => new AppError(404, 'This tracking link does not exist or has expired', 'Unknown, expired or revoked tracking link');

/** HIGH: a fix in the last 15 minutes and the ETA computed since; MEDIUM: a fix within the hour; LOW otherwise. */
export function etaConfidence(fixAt: number | null, etaUpdatedAt: number | null, at: number): EtaConfidence {
  if (fixAt === null) return 'LOW';
  const age = at - fixAt;
  if (age <= 15 * MINUTE && etaUpdatedAt !== null && etaUpdatedAt >= fixAt) return 'HIGH';
  if (age <= 60 * MINUTE) return 'MEDIUM';
  return 'LOW';
}

function cityState(lat: number, lon: number): { city: string | null; state: string | null } {
  try {
    const place = describeLocation(lat, lon).place;
    const cut = place.lastIndexOf(', ');
    return cut < 0 ? { city: place, state: null } : { city: place.slice(0, cut), state: place.slice(cut + 2) };
  } catch {
    return { city: null, state: null };
  }
}

type StopRows = Awaited<ReturnType<typeof repo.stopsOf>>;
type History = Awaited<ReturnType<typeof repo.statusHistoryOf>>;

/** When the load started: its first EN_ROUTE (or later) status, else its first stop arrival; null before. */
export function loadStart(history: History, stops: StopRows): number | null {
  const started = history.find((h) => h.status === 'EN_ROUTE' || h.status === 'AT_STOP' || h.status === 'DELIVERED');
  const arrived = stops.map((s) => s.stop.arrivedAt?.getTime()).filter((t): t is number => t !== undefined);
  const times = [started?.at.getTime(), ...arrived].filter((t): t is number => t !== undefined);
  return times.length ? Math.min(...times) : null;
}

/** When the last stop was done: its departure (else arrival once delivered), else the delivery; null while it is not. */
export function loadDone(load: { status: LoadStatus; deliveredAt: Date | null }, stops: StopRows): number | null {
  const last = stops.at(-1)?.stop;
  if (last?.departedAt) return last.departedAt.getTime();
  if (load.status === 'DELIVERED') return last?.arrivedAt?.getTime() ?? load.deliveredAt?.getTime() ?? null;
  if (load.status === 'CANCELLED') return load.deliveredAt?.getTime() ?? 0;
  return null;
}

/** The link of a token that shows something now, or the one 404. */
async function liveLink(db: Db, token: string, at: number): Promise<repo.ShareLinkRow> {
  if (!TOKEN_PATTERN.test(token)) throw trackingNotFound();
  const link = await repo.linkByTokenHash(db, tokenHash(token));
  if (!link || link.revokedAt || link.expiresAt.getTime() <= at) throw trackingNotFound();
  return link;
}

/**
 * A proof of delivery's PDF through a load's link (issue 70): only a POD of that load, only once the
 * load is delivered; anything else answers the same 404 as an unknown link.
 */
export async function publicProofOfDelivery(db: Db, token: string, documentId: string, at = Date.now()): Promise<{ fileName: string; pdf: Buffer }> {
  const link = await liveLink(db, token, at);
  const load = link.kind === 'LOAD' && link.loadId ? await repo.loadOf(db, link.organizationId, link.loadId) : null;
  if (!load || load.status !== 'DELIVERED') throw trackingNotFound();
  const doc = (await repo.proofsOfDeliveryOf(db, link.organizationId, load.id)).find((d) => d.id === documentId);
  if (!doc) throw trackingNotFound();
  return loadDocumentPdf(db, link.organizationId, load.number, { id: doc.id, loadId: load.id, kind: 'POD' });
}

export async function publicTracking(db: Db, token: string, at = Date.now()): Promise<PublicTracking> {
  const link = await liveLink(db, token, at);
  const org = await repo.organizationOf(db, link.organizationId);
  if (!org) throw trackingNotFound();
  const orgId = link.organizationId;
  const base = {
    kind: link.kind,
    carrier: { name: org.name },
    expiresAt: link.expiresAt.toISOString(),
    unitSystem: readSettings(org.settings).units,
  };
  let answer: PublicTracking;
  if (link.kind === 'VEHICLE') {
    const vehicle = link.assetId ? await repo.vehicleOf(db, orgId, link.assetId) : null;
    if (!vehicle) throw trackingNotFound();
    const fix = await repo.lastFixOf(db, orgId, vehicle.id, at);
    answer = {
      ...base,
      load: null,
      vehicle: { unitNumber: vehicle.unitNumber },
      stops: [],
      position: fix && positionOf(fix),
      statusHistory: [],
      proofOfDelivery: [],
      temperature: null,
    };
  } else {
    const load = link.loadId ? await repo.loadOf(db, orgId, link.loadId) : null;
    if (!load) throw trackingNotFound();
    const [stops, history, vehicle, pods] = await Promise.all([
      repo.stopsOf(db, orgId, load.id),
      repo.statusHistoryOf(db, orgId, load.id),
      repo.loadVehicleOf(db, orgId, load),
      load.status === 'DELIVERED' ? repo.proofsOfDeliveryOf(db, orgId, load.id) : [],
    ]);
    const seqOf = new Map(stops.map(({ stop }) => [stop.id, stop.seq]));
    const start = loadStart(history, stops);
    const done = loadDone(load, stops);
    const shown = start !== null && start <= at && (done === null || at <= done + TRACKING_POSITION_AFTER_LAST_STOP_MINUTES * MINUTE);
    const fix = vehicle && shown ? await repo.lastFixOf(db, orgId, vehicle.id, at) : null;
    const fixShown = fix && fix.fixTime >= start! - BEFORE_START_MS ? fix : null;
    const running = (ACTIVE_LOAD_STATUSES as readonly string[]).includes(load.status);
    const etaAt = load.etaUpdatedAt?.getTime() ?? null;
    // The temperature only where the carrier chose to show it on this link, and only while the truck is shown.
    const temperature = link.showTemperature && shown ? await publicLoadTemperature(db, orgId, load.id, at) : null;
    answer = {
      ...base,
      load: { number: load.number, customerReference: load.poNumber ?? load.bolNumber ?? null, status: load.status },
      vehicle: vehicle ? { unitNumber: vehicle.unitNumber } : null,
      stops: stops.map(({ stop, placeName }): TrackingStop => {
        const eta = running && !stop.arrivedAt && stop.eta ? stop.eta : null;
        return {
          seq: stop.seq,
          kind: stop.kind,
          name: placeName ?? null,
          ...cityState(stop.latitude, stop.longitude),
          windowStart: stop.windowStart.toISOString(),
          windowEnd: stop.windowEnd.toISOString(),
          status: stop.departedAt ? 'DEPARTED' : stop.arrivedAt ? 'ARRIVED' : 'PENDING',
          arrivedAt: stop.arrivedAt?.toISOString() ?? null,
          departedAt: stop.departedAt?.toISOString() ?? null,
          eta: eta?.toISOString() ?? null,
          etaConfidence: eta ? etaConfidence(fix?.fixTime ?? null, etaAt, at) : null,
          late: eta ? eta.getTime() > stop.windowEnd.getTime() : false,
        };
      }),
      position: fixShown && positionOf(fixShown),
      statusHistory: history.map((h) => ({ status: h.status, at: h.at.toISOString() })),
      // Read through this same link: the token names the load, the id the paper.
      proofOfDelivery: pods.map((d) => ({
        id: d.id,
        stopSeq: d.stopId === null ? null : (seqOf.get(d.stopId) ?? null),
        pageCount: d.pageCount,
        createdAt: d.createdAt.toISOString(),
        url: `/api/v1/public/tracking/${token}/documents/${d.id}/pdf`,
      })),
      temperature,
    };
  }
  await repo.countView(db, orgId, link.id, at);
  return answer;
}

function positionOf(fix: repo.FixRow): NonNullable<PublicTracking['position']> {
  return {
    latitude: fix.latitude,
    longitude: fix.longitude,
    at: new Date(fix.fixTime).toISOString(),
    speedKmh: fix.speed === null ? null : Math.round(fix.speed),
    heading: fix.course === null ? null : Math.round(fix.course),
  };
}
