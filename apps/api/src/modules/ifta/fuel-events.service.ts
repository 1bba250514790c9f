import type { z } from 'zod';
import {
  roundTo,
  volumeFromL,
  type FuelEvent,
  type FuelEventPage,
  type FuelTransactionCheck,
  type UnitSystem,
  type fuelEventListQuery,
} from '@fleet/api-contract';
import { invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { eventDescription, placeText } from './fuel-event-words.ts';
import { DEFAULT_EVENT_ORDER, EVENT_SORTS, EVENT_TIE_BREAK, listFuelEventRows, type NamedFuelEvent } from './fuel-events.repository.ts';
import { organizationFacts } from './fuel-purchases.service.ts';
import { matchSettings } from './fuel-transactions.service.ts';

// The office's reads of fuel-level events (issue 68, decision 0276): refuels and drops in the
// organization's units, a refuel with the card transaction that matches it (read now: one posted after
// the refuel matches too), the refuels nothing matches (cash, another card) on their own.

type ListQuery = z.output<typeof fuelEventListQuery>;

export function presentFuelEvent(n: NamedFuelEvent, units: UnitSystem): FuelEvent {
  const e = n.e;
  return {
    id: e.id,
    type: e.type,
    vehicleId: e.assetId,
    vehicleUnitNumber: n.unit,
    driverId: e.driverId,
    driverName: n.driverFirst || n.driverLast ? [n.driverFirst, n.driverLast].filter(Boolean).join(' ') : null,
    startedAt: e.startedAt.toISOString(),
    endedAt: e.endedAt.toISOString(),
    latitude: e.latitude,
    longitude: e.longitude,
    place: placeText(e.latitude, e.longitude, units),
    quantityL: e.quantityL,
    quantity: roundTo(volumeFromL(e.quantityL, units), 1),
    unit: units === 'IMPERIAL' ? 'GAL' : 'L',
    levelBeforePct: e.levelBeforePct,
    levelAfterPct: e.levelAfterPct,
    levelBeforeL: e.levelBeforeL,
    levelAfterL: e.levelAfterL,
    tankCapacityL: e.tankCapacityL,
    tankCapacityAssumed: e.capacityAssumed,
    ignitionOff: e.ignitionOff,
    purchase: n.tx
      ? {
          id: n.tx.id,
          transactionId: n.tx.transaction_id,
          time: new Date(n.tx.time).toISOString(),
          merchant: n.tx.merchant,
          quantity: Number(n.tx.quantity_milli) / 1000,
          unit: n.tx.unit,
          verification: n.tx.verification as FuelTransactionCheck,
        }
      : null,
    description: eventDescription({ ...e, startedAt: e.startedAt.getTime(), endedAt: e.endedAt.getTime() }, units),
  };
}

/** A page of refuels and drops (filters: type, from, to, vehicle, unmatched refuels; counts per type and unmatched). */
export async function listFuelEvents({ db, orgId }: ReadScope, q: ListQuery): Promise<FuelEventPage> {
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  if (from && to && from >= to) throw invalidField('to', 'To must be after From');
  if (q.unmatched === 'true' && q.type === 'DROP') throw invalidField('unmatched', 'Only refuels are matched to card transactions: leave out type=DROP');
  const { units } = await organizationFacts(db, orgId);
  const match = await matchSettings(db, orgId);
  const { rows, total, counts } = await listFuelEventRows(
    db,
    orgId,
    { type: q.type, from, to, vehicleId: q.vehicleId, unmatched: q.unmatched === 'true', search: q.search ? likeTerm(q.search) : undefined },
    match.windowMinutes * 60_000,
    { size: q.size, offset: q.page * q.size, order: orderBy(q.sort, EVENT_SORTS, DEFAULT_EVENT_ORDER, EVENT_TIE_BREAK) },
  );
  return {
    ...toPage(
      rows.map((r) => presentFuelEvent(r, units)),
      total,
      q,
    ),
    counts,
  };
}

export async function getFuelEvent({ db, orgId }: ReadScope, id: string): Promise<FuelEvent> {
  const { units } = await organizationFacts(db, orgId);
  const match = await matchSettings(db, orgId);
  const { rows } = await listFuelEventRows(db, orgId, { id }, match.windowMinutes * 60_000, { size: 1, offset: 0, order: [DEFAULT_EVENT_ORDER] });
  if (!rows[0]) throw notFound('Fuel event');
  return presentFuelEvent(rows[0], units);
}
