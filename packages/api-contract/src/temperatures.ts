import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import type { UnitSystem } from './units.ts';
import { queryNumber } from './numbers.ts';

// Reefer temperatures (issue 73): a trailer's sensors and their roles, a load's set point, tolerance
// and delay, the readings the gateways send and the excursions found in them. Stored and sent in
// degrees Celsius; shown in the organization's unit system (°F for imperial).

defineLabels({
  temperatures: 'temperatures',
  sensor: 'sensor',
  celsius: 'celsius',
  defrost: 'defrost',
  setPointC: 'Set point',
  toleranceC: 'Tolerance',
  delayMinutes: 'Delay',
  role: 'Role',
  sensors: 'Sensors',
});

/** What a trailer's sensor measures: the air back from the load, the air blown in, or a compartment. */
export const SENSOR_ROLES = ['RETURN_AIR', 'SUPPLY_AIR', 'ZONE_1', 'ZONE_2', 'ZONE_3'] as const;
export type SensorRole = (typeof SENSOR_ROLES)[number];

/** The default delay before an excursion counts, and before it closes (issue 73). */
export const DEFAULT_EXCURSION_DELAY_MINUTES = 15;
/** The readings' interval the temperature log prints by default, minutes. */
export const DEFAULT_LOG_INTERVAL_MINUTES = 15;
/** A batch position may carry this many readings. */
export const MAX_TEMPERATURES_PER_FIX = 16;

/**
 * Set points by commodity: Fleetline's defaults, not a regulation (the shipper's instructions win and
 * are typed on the load). A load's commodity matches the first entry whose words it contains.
 */
export const REEFER_COMMODITY_DEFAULTS = [
  { key: 'FROZEN', words: ['frozen', 'ice cream'], setPointC: -18, toleranceC: 3 },
  { key: 'CHILLED', words: ['chilled', 'dairy', 'meat', 'poultry', 'seafood', 'fish'], setPointC: 2, toleranceC: 2 },
  { key: 'PRODUCE', words: ['produce', 'fruit', 'vegetable', 'berries', 'lettuce'], setPointC: 4, toleranceC: 2 },
] as const;

/** The commodity's default set point and tolerance (null: not a reefer commodity the table knows). */
export function commodityDefaults(commodity: string | null | undefined): { setPointC: number; toleranceC: number } | null {
  const text = (commodity ?? '').toLowerCase();
  if (!text) return null;
  const hit = REEFER_COMMODITY_DEFAULTS.find((c) => c.words.some((w) => text.includes(w)));
  return hit ? { setPointC: hit.setPointC, toleranceC: hit.toleranceC } : null;
}

/** °C in the system's unit (°F for imperial). */
export const temperatureFromC = (c: number, units: UnitSystem): number => (units === 'IMPERIAL' ? (c * 9) / 5 + 32 : c);
/** A temperature typed in the system's unit, back to °C. */
export const temperatureToC = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? ((v - 32) * 5) / 9 : v);
/** A difference of °C (a tolerance) in the system's unit. */
export const temperatureSpanFromC = (c: number, units: UnitSystem): number => (units === 'IMPERIAL' ? (c * 9) / 5 : c);
/** A difference typed in the system's unit, back to °C. */
export const temperatureSpanToC = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? (v * 5) / 9 : v);
export const temperatureUnit = (units: UnitSystem): '°F' | '°C' => (units === 'IMPERIAL' ? '°F' : '°C');
/** A temperature as text in the system's unit, one decimal: "-0.4 °F". */
export const temperatureText = (c: number, units: UnitSystem): string =>
  `${(Math.round(temperatureFromC(c, units) * 10) / 10).toFixed(1)} ${temperatureUnit(units)}`;

/** A difference of °C (a tolerance) as text in the system's unit, one decimal: "5.4 °F". */
export const temperatureSpanText = (c: number, units: UnitSystem): string =>
  `${(Math.round(temperatureSpanFromC(c, units) * 10) / 10).toFixed(1)} ${temperatureUnit(units)}`;

/** One reading in a batch position: the sensor's name as the device reports it, °C, and whether a defrost cycle runs. */
export const batchTemperatureSchema = z.object({
  sensor: z.string({ error: 'sensor must be a text' }).trim().min(1, 'sensor must not be empty').max(40, 'sensor must be at most 40 characters'),
  celsius: z.number({ error: 'celsius must be a number' }).min(-60, 'celsius must be between -60 and 80').max(80, 'celsius must be between -60 and 80'),
  /** The reefer unit is defrosting: the reading does not count toward an excursion. */
  defrost: z.boolean({ error: 'defrost must be true or false' }).optional(),
});
export type BatchTemperature = z.infer<typeof batchTemperatureSchema>;
export const batchTemperaturesSchema = z
  .array(batchTemperatureSchema)
  .max(MAX_TEMPERATURES_PER_FIX, `temperatures can hold at most ${MAX_TEMPERATURES_PER_FIX} readings`);

/** A trailer's sensor and what it measures. */
export const trailerSensorSchema = z.object({ sensor: batchTemperatureSchema.shape.sensor, role: z.enum(SENSOR_ROLES) });
export type TrailerSensor = z.infer<typeof trailerSensorSchema>;
export const trailerSensorsSchema = z.object({
  sensors: z
    .array(trailerSensorSchema)
    .max(MAX_TEMPERATURES_PER_FIX)
    .refine((s) => new Set(s.map((x) => x.sensor)).size === s.length, 'Each sensor may be listed once'),
});
export type TrailerSensors = z.infer<typeof trailerSensorsSchema>;

/** A load's reefer settings as typed (°C; the web converts from the organization's unit). */
export const reeferSettingsInputSchema = z.object({
  setPointC: z.number().min(-40, 'Set point must be between -40 and 30 °C').max(30, 'Set point must be between -40 and 30 °C'),
  toleranceC: z.number().min(0.5, 'Tolerance must be between 0.5 and 10 °C').max(10, 'Tolerance must be between 0.5 and 10 °C'),
  delayMinutes: z
    .number()
    .int('Delay must be whole minutes')
    .min(1, 'Delay must be between 1 and 240 minutes')
    .max(240, 'Delay must be between 1 and 240 minutes'),
});
export type ReeferSettingsInput = z.infer<typeof reeferSettingsInputSchema>;

/** A load's reefer settings: typed on the load, else its commodity's defaults (`source`). */
export const reeferSettingsSchema = z.object({
  setPointC: z.number().nullable(),
  toleranceC: z.number().nullable(),
  delayMinutes: z.number().int(),
  source: z.enum(['LOAD', 'COMMODITY', 'NONE']),
});
export type ReeferSettings = z.infer<typeof reeferSettingsSchema>;

export const temperatureReadingSchema = z.object({
  sensor: z.string(),
  role: z.enum(SENSOR_ROLES).nullable(),
  at: z.string(),
  celsius: z.number(),
  defrost: z.boolean(),
});
export type TemperatureReading = z.infer<typeof temperatureReadingSchema>;

export const temperatureExcursionSchema = z.object({
  id: z.string(),
  sensor: z.string(),
  /** The first reading out of the band (the event opened `delayMinutes` later). */
  startedAt: z.string(),
  /** The first reading back in the band (it closed `delayMinutes` later); null while it lasts. */
  endedAt: z.string().nullable(),
  direction: z.enum(['HIGH', 'LOW']),
  /** The reading farthest from the set point. */
  peakC: z.number(),
  setPointC: z.number(),
  toleranceC: z.number(),
});
export type TemperatureExcursion = z.infer<typeof temperatureExcursionSchema>;

/** A load's temperature record: its trailer's readings while it carried the load, the excursions and the settings. */
export const loadTemperaturesSchema = z.object({
  loadId: z.string(),
  trailerId: z.string().nullable(),
  trailerUnit: z.string().nullable(),
  settings: reeferSettingsSchema,
  readings: z.array(temperatureReadingSchema),
  excursions: z.array(temperatureExcursionSchema),
});
export type LoadTemperatures = z.infer<typeof loadTemperaturesSchema>;

/** A trailer's recent readings and sensors (its page's chart). */
export const trailerTemperaturesSchema = z.object({
  trailerId: z.string(),
  sensors: z.array(trailerSensorSchema),
  readings: z.array(temperatureReadingSchema),
  excursions: z.array(temperatureExcursionSchema),
});
export type TrailerTemperatures = z.infer<typeof trailerTemperaturesSchema>;

export const temperatureLogQuerySchema = z.object({
  interval: queryNumber(
    z
      .number({ error: 'interval must be a number of minutes' })
      .int('interval must be whole minutes')
      .min(1, 'interval must be between 1 and 240 minutes')
      .max(240, 'interval must be between 1 and 240 minutes'),
  ).default(DEFAULT_LOG_INTERVAL_MINUTES),
});
