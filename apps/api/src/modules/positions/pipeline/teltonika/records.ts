import type { IoMap } from '@fleet/api-contract';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../../db/client.ts';
import { deviceModels, gateways, positions } from '../../../../db/schema/index.ts';
import { engineColumns } from '../engine-data.ts';
import { checkFix, FixError, timeToStore } from '../fix-check.ts';
import { currentAttribution, type GatewayInfo } from '../gateway-directory.ts';
import { noteRefusal, noteWriteRefusals, type Ingest } from '../ingest.service.ts';
import type { PositionRow } from '../position-row.ts';
import type { AvlRecord } from './codec.ts';
import { recordTemperatures, type TemperatureInput } from '../../../temperatures/index.ts';
import { driverCardsOf, effectiveIoMap, ioAttributes, temperaturesOf } from './io-map.ts';
import { recordCardReads, type CardReadInput } from '../../../assets/index.ts';

// Teltonika AVL records to position rows (decision 0153): IO elements named by the device model's
// map, the engine columns picked from them, each record checked as every way in checks its fixes.

/** The device model's IO map of a device (null: no model). */
export async function loadIoMap(db: Db, gatewayId: string): Promise<IoMap> {
  const [row] = await db
    .select({ ioMap: deviceModels.ioMap })
    .from(gateways)
    .leftJoin(deviceModels, eq(deviceModels.id, gateways.deviceModelId))
    .where(eq(gateways.id, gatewayId));
  return effectiveIoMap(row?.ioMap);
}

/** A connection's device as the rows need it; `lastFix` places records sent before the receiver had a fix. */
export interface TeltonikaDevice {
  gw: GatewayInfo;
  ioMap: IoMap;
  lastFix: { latitude: number; longitude: number } | null;
  /** Whether the database was asked for the device's last stored position (once per connection). */
  lastFixLoaded: boolean;
}

export interface RecordsOutcome {
  rows: PositionRow[];
  /** Refused by the fix check (counted in ingest.refused): acknowledged all the same, so the device moves on. */
  refused: number;
  /** Without any location yet (no fix since the device started and none stored): nothing to store. */
  placeless: number;
}

/** Rows of one packet's records, in the packet's order. */
export async function recordsToRows(
  ingest: Ingest,
  device: TeltonikaDevice,
  records: readonly (AvlRecord & { ioWidths?: ReadonlyMap<number, number> })[],
  now = Date.now(),
): Promise<RecordsOutcome> {
  const out: RecordsOutcome = { rows: [], refused: 0, placeless: 0 };
  const receivedAt = new Date(now);
  for (const [index, r] of records.entries()) {
    const attributes = ioAttributes(r.io, device.ioMap, r.ioWidths);
    attributes.priority = r.priority;
    attributes.event = r.eventIoId;
    attributes.satellites = r.satellites;
    let { latitude, longitude } = r;
    // A receiver without a fix reports 0, 0 (and no satellites): the record still carries IO worth
    // keeping (an ignition change), placed where the device last was.
    if (latitude === 0 && longitude === 0) {
      if (!device.lastFix && !device.lastFixLoaded) {
        device.lastFixLoaded = true;
        const [last] = await ingest.db
          .select({ latitude: positions.latitude, longitude: positions.longitude })
          .from(positions)
          .where(eq(positions.gatewayId, device.gw.id))
          .orderBy(desc(positions.fixTime))
          .limit(1);
        device.lastFix = last ?? null;
      }
      if (!device.lastFix) {
        out.placeless++;
        continue;
      }
      ({ latitude, longitude } = device.lastFix);
      attributes.approximate = true;
    }
    if (r.satellites === 0) attributes.valid = false;
    const fixTime = timeToStore(device.gw.useReceivedTime, new Date(r.timestamp), receivedAt, index)!;
    try {
      checkFix({ latitude, longitude, fixTime, speed: r.speed, course: r.angle, altitude: r.altitude }, now);
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      noteRefusal(ingest, device.gw, 'teltonika', err, fixTime, receivedAt);
      out.refused++;
      continue;
    }
    if (!attributes.approximate) device.lastFix = { latitude, longitude };
    const who = currentAttribution(device.gw, fixTime) ?? (await ingest.directory.attribution(device.gw, fixTime));
    out.rows.push({
      organizationId: device.gw.orgId,
      gatewayId: device.gw.id,
      assetId: who.assetId,
      driverId: who.driverId,
      fixTime,
      latitude,
      longitude,
      speed: r.speed,
      course: r.angle % 360,
      altitude: r.altitude,
      accuracy: null,
      ...engineColumns(attributes),
      protocol: 'teltonika',
      attributes,
    });
  }
  return out;
}

/**
 * The cold chain's readings of rows the database took or already held (a resend): each temperature
 * the device model's map names, by its sensor (decision 0323). Handed to the temperatures module
 * before the device is answered, so an acknowledged reading is never lost.
 */
export function temperatureReadings(rows: readonly PositionRow[], refused: ReadonlyArray<unknown> | undefined, ioMap: IoMap): TemperatureInput[] {
  return rows.flatMap((row, k) =>
    refused?.[k]
      ? []
      : temperaturesOf(row.attributes as Record<string, unknown>, ioMap).map((t) => ({
          organizationId: row.organizationId,
          gatewayId: row.gatewayId,
          assetId: row.assetId,
          at: row.fixTime,
          sensor: t.sensor,
          celsius: t.celsius,
        })),
  );
}

/**
 * The driver cards (iButton, RFID) of rows the database took or already held (decision 0324), for
 * the assets module to record once and turn into the vehicle's driver.
 */
export function cardReads(rows: readonly PositionRow[], refused: ReadonlyArray<unknown> | undefined, ioMap: IoMap): CardReadInput[] {
  return rows.flatMap((row, k) =>
    refused?.[k]
      ? []
      : driverCardsOf(row.attributes as Record<string, unknown>, ioMap).map((cardNumber) => ({
          organizationId: row.organizationId,
          gatewayId: row.gatewayId,
          assetId: row.assetId,
          at: row.fixTime,
          cardNumber,
        })),
  );
}

/**
 * One packet's records stored, over TCP or UDP: the rows committed (what the database refuses is
 * counted and acknowledged with the rest, so the device moves on), the sensors' temperatures and
 * the driver cards read stored once each, and the device's clock watched, all before the device is answered.
 */
export async function storeRecords(
  ingest: Ingest,
  device: TeltonikaDevice,
  records: readonly (AvlRecord & { ioWidths?: ReadonlyMap<number, number> })[],
): Promise<void> {
  const receivedAt = new Date();
  const { rows } = await recordsToRows(ingest, device, records, receivedAt.getTime());
  if (rows.length === 0) return;
  const gw = device.gw;
  const { stored, refused } = await ingest.committer.write(rows);
  noteWriteRefusals(ingest, gw, rows, refused, receivedAt);
  const readings = temperatureReadings(rows, refused, device.ioMap);
  if (readings.length) await recordTemperatures(ingest.db, readings, receivedAt.getTime());
  const cards = cardReads(rows, refused, device.ioMap);
  if (cards.length) await recordCardReads(ingest.db, cards);
  const last = rows.findLast((_, k) => stored[k]);
  if (last) ingest.refusedFixes?.observe({ organizationId: gw.orgId, gatewayId: gw.id, receivedAt, fixTime: last.fixTime });
}
