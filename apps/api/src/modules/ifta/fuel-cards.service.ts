import type { z } from 'zod';
import type { FuelCardAssignment, fuelCardAssignmentInputSchema } from '@fleet/api-contract';
import { invalidField, notFound } from '../../http/errors.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import {
  cardAssignmentRows,
  deleteCardAssignment,
  organizationDrivers,
  organizationVehicles,
  putCardAssignment,
  unresolvedWithCard,
} from './fuel-transactions.repository.ts';
import { resolveLater } from './fuel-transactions.service.ts';

// Fuel cards given to a vehicle or a driver (issue 68): a transaction that names only its card
// finds its truck through them; one that found none finds it when the card is given.

type Input = z.output<typeof fuelCardAssignmentInputSchema>;

export async function listCards({ db, orgId }: ReadScope): Promise<{ content: FuelCardAssignment[] }> {
  const [cards, vehicles, drivers] = await Promise.all([cardAssignmentRows(db, orgId), organizationVehicles(db, orgId), organizationDrivers(db, orgId)]);
  const unit = new Map(vehicles.map((v) => [v.id, v.unitNumber]));
  const name = new Map(drivers.map((d) => [d.id, `${d.firstName} ${d.lastName}`]));
  return {
    content: cards.map((c) => ({
      cardNumberLast4: c.cardLast4,
      vehicleId: c.vehicleId,
      vehicleUnitNumber: c.vehicleId ? (unit.get(c.vehicleId) ?? null) : null,
      driverId: c.driverId,
      driverName: c.driverId ? (name.get(c.driverId) ?? null) : null,
      updatedAt: c.updatedAt.toISOString(),
    })),
  };
}

export async function assignCard(scope: Scope, last4: string, input: Input): Promise<FuelCardAssignment> {
  const { db, orgId, actor } = scope;
  await db.transaction(async (tx) => {
    if (input.vehicleId && !(await organizationVehicles(tx, orgId)).some((v) => v.id === input.vehicleId))
      throw invalidField('vehicleId', 'Vehicle is not a vehicle of this organization');
    if (input.driverId && !(await organizationDrivers(tx, orgId)).some((d) => d.id === input.driverId))
      throw invalidField('driverId', 'Driver is not a driver of this organization');
    await putCardAssignment(tx, orgId, last4, { vehicleId: input.vehicleId ?? null, driverId: input.driverId ?? null });
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'FUEL_CARD', entityId: null, after: { cardLast4: last4, ...input } });
    await resolveLater(tx, orgId, await unresolvedWithCard(tx, orgId, last4));
  });
  const card = (await listCards(scope)).content.find((c) => c.cardNumberLast4 === last4);
  return card!;
}

export async function unassignCard({ db, orgId, actor }: Scope, last4: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deleteCardAssignment(tx, orgId, last4))) throw notFound('Fuel card');
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'FUEL_CARD', entityId: null, before: { cardLast4: last4 } });
  });
}
