import { z } from 'zod';
import { instantField } from './dates.ts';
import { FUEL_TRANSACTION_CHECKS } from './fuel-transactions.ts';
import { VOLUME_UNITS } from './ifta.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';

// Fuel-level events (issue 68, part 2, decision 0276): refuels and drops found in the fuel level a
// truck's sensor reports with its positions (`fuelLevel` in percent, `fuelLevelLitres` in litres).

/** REFUEL: the level rose while the truck stood; DROP: it fell while the truck stood or its ignition was off (a possible theft). */
export const FUEL_EVENT_TYPES = ['REFUEL', 'DROP'] as const;
export type FuelEventType = (typeof FUEL_EVENT_TYPES)[number];
export const FUEL_EVENT_TYPE_LABELS: Record<FuelEventType, string> = { REFUEL: 'Refuel', DROP: 'Drop' };

/**
 * What counts as an event, in percent of the tank: a rise of at least `refuelPct` while the truck
 * stands; a fall of at least `dropPct` within `dropWithinMinutes` while it stands or its ignition is off.
 */
export const FUEL_EVENT_RULES = { refuelPct: 10, dropPct: 5, dropWithinMinutes: 30 } as const;

export const fuelEventSchema = z.object({
  id: z.string(),
  type: z.enum(FUEL_EVENT_TYPES),
  vehicleId: z.string(),
  vehicleUnitNumber: z.string().nullable(),
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  /** When the level began to move (the last steady reading before it), and when it settled. */
  startedAt: z.string(),
  endedAt: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** The nearest town, in words ("3 mi NE of Joliet, IL"). */
  place: z.string().nullable(),
  /** How much went in or out, litres. */
  quantityL: z.number(),
  /** The same in the organization's units (`unit`: GAL for imperial, L for metric), to 0.1. */
  quantity: z.number(),
  unit: z.enum(VOLUME_UNITS),
  /** The level before and after: percent of the tank and litres. */
  levelBeforePct: z.number(),
  levelAfterPct: z.number(),
  levelBeforeL: z.number(),
  levelAfterL: z.number(),
  /** The tank the percentages are of (litres), and whether it is the 300 gal default because the vehicle has none set. */
  tankCapacityL: z.number(),
  tankCapacityAssumed: z.boolean(),
  /** The ignition was off while the level fell (a drop) or rose (a refuel). */
  ignitionOff: z.boolean(),
  /** A refuel's card transaction: the truck's transaction closest in time within the organization's window; null when none (cash, another card). */
  purchase: z
    .object({
      id: z.string(),
      transactionId: z.string(),
      time: z.string(),
      merchant: z.string().nullable(),
      quantity: z.number(),
      unit: z.enum(VOLUME_UNITS),
      verification: z.enum(FUEL_TRANSACTION_CHECKS),
    })
    .nullable(),
  /** The event in words, in the organization's units. */
  description: z.string(),
});
export type FuelEvent = z.infer<typeof fuelEventSchema>;

export const fuelEventPageSchema = pageSchema(fuelEventSchema).extend({
  /** Over the filters other than type and unmatched: refuels, drops, and refuels with no card transaction. */
  counts: z.object({ REFUEL: z.number().int(), DROP: z.number().int(), UNMATCHED: z.number().int() }),
});
export type FuelEventPage = z.infer<typeof fuelEventPageSchema>;

export const fuelEventListQuery = pageQuerySchema.extend({
  type: z.enum(FUEL_EVENT_TYPES, { error: () => 'Type must be REFUEL or DROP' }).optional(),
  from: instantField('From').optional(),
  to: instantField('To').optional(),
  vehicleId: z.uuid({ error: () => 'Vehicle must be a vehicle id' }).optional(),
  /** true: only refuels no card transaction matches (fuel bought with cash or another card). */
  unmatched: z.enum(['true', 'false'], { error: () => 'Unmatched must be true or false' }).optional(),
});
export type FuelEventListQuery = z.input<typeof fuelEventListQuery>;
export const fuelEventIdParams = z.object({ orgId: z.uuid(), id: z.uuid() });
