import { z } from 'zod';

// Engine data as every way in names it (decision 0152). Devices report numbered IO elements
// (Teltonika) or their own keys (Traccar's forwarding); ingest turns them into these attributes,
// kept in a position's `attributes`, and the best odometer, the engine hours and the ignition into
// the position's own columns. Units are SI-ish and fixed: metres, hours, volts, km/h (`unit`: what an
// IO map's multiplier must produce; screens that show whether data was seen name the attribute only).

export const ENGINE_ATTRIBUTES = {
  ignition: { label: 'Ignition', kind: 'boolean', unit: null },
  motion: { label: 'Movement', kind: 'boolean', unit: null },
  power: { label: 'External voltage', kind: 'number', unit: 'V' },
  gpsOdometer: { label: 'GNSS odometer', kind: 'number', unit: 'm' },
  vehicleOdometer: { label: 'Vehicle total mileage, engine', kind: 'number', unit: 'm' },
  engineHours: { label: 'Engine total hours', kind: 'number', unit: 'h' },
  rpm: { label: 'Engine speed', kind: 'number', unit: 'rpm' },
  vehicleSpeed: { label: 'Vehicle speed, engine', kind: 'number', unit: 'km/h' },
  vin: { label: 'VIN', kind: 'text', unit: null },
} as const satisfies Record<string, { label: string; kind: 'boolean' | 'number' | 'text'; unit: string | null }>;

export type EngineAttribute = keyof typeof ENGINE_ATTRIBUTES;
export const ENGINE_ATTRIBUTE_NAMES = Object.keys(ENGINE_ATTRIBUTES) as EngineAttribute[];

/** What the ELD needs from the engine (Appendix A 4.3.1): without these a device is "GPS only". */
export const ELD_ENGINE_ATTRIBUTES: readonly EngineAttribute[] = ['ignition', 'vehicleOdometer', 'engineHours'];

/** One numbered IO element's name and the factor from its raw value to the attribute's unit. */
export const ioMapEntrySchema = z.object({
  attribute: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,39}$/, 'Attribute must be a name of letters and digits'),
  multiplier: z.number().finite().positive().optional(),
});
export type IoMapEntry = z.infer<typeof ioMapEntrySchema>;

/** IO element id (decimal) to entry. */
export const ioMapSchema = z.record(z.string().regex(/^\d{1,5}$/, 'IO element ids are numbers'), ioMapEntrySchema);
export type IoMap = z.infer<typeof ioMapSchema>;

/**
 * Teltonika FMB/FMC/FMM with an LV-CAN200/ALL-CAN300 or J1939 adapter (Teltonika's FMB AVL ID list):
 * a device model whose protocol is `teltonika` and whose map is empty uses this one.
 */
export const TELTONIKA_DEFAULT_IO_MAP: IoMap = {
  '239': { attribute: 'ignition' },
  '240': { attribute: 'motion' },
  '66': { attribute: 'power', multiplier: 0.001 },
  '16': { attribute: 'gpsOdometer' },
  '81': { attribute: 'vehicleSpeed' },
  '85': { attribute: 'rpm' },
  '87': { attribute: 'vehicleOdometer' },
  '102': { attribute: 'engineHours', multiplier: 1 / 60 },
  '256': { attribute: 'vin' },
  // Engine faults (decision 0191): FMB OBD "Number of DTC" and "Fault Codes"; FMB640/FMC650 "DTC DM1".
  '30': { attribute: 'dtcCount' },
  '281': { attribute: 'dtcs' },
  '10493': { attribute: 'dm1Dtc' },
  // Driver safety (decision 0194): FMB green driving (253 type, 254 strength in 0.1 m/s²), over-speeding
  // (255, km/h), idling (251), crash (247), towing (246), jamming (249); the engine's total fuel used (83, 0.1 l).
  '253': { attribute: 'greenDrivingType' },
  '254': { attribute: 'greenDrivingValue', multiplier: 0.1 },
  '255': { attribute: 'overSpeeding' },
  '251': { attribute: 'idling' },
  '247': { attribute: 'crash' },
  '246': { attribute: 'towing' },
  '249': { attribute: 'jamming' },
  '83': { attribute: 'fuelUsed', multiplier: 0.1 },
  // The fuel in the tank (issue 68, decision 0276): FMB "Fuel level" from CAN in percent (89) or in
  // 0.1 l (84, LV-CAN), and the OBD "Fuel Level" in percent (48). A device reports one of them.
  '89': { attribute: 'fuelLevel' },
  '84': { attribute: 'fuelLevelLitres', multiplier: 0.1 },
  '48': { attribute: 'fuelLevel' },
};

/**
 * Engine fault data as the ways in name it (decision 0191), kept in a position's `attributes` and
 * read by the engine-faults follower. `dtcs`: the codes the device reports now, a complete list
 * (Traccar's `dtcs` attribute, Teltonika 281 "Fault Codes": OBD-II codes, or J1939 "SPN/FMI");
 * `dtcCount`: how many (Teltonika 30; 0 clears the list); `dm1Dtc`: one J1939 DM1 fault as its four
 * bytes (SPN, FMI, CM, OC), sent once when it appears (Teltonika 10493 "DTC DM1"); `dm1`: a whole DM1
 * message (lamp status, then four bytes per fault), as hex.
 */
export const FAULT_ATTRIBUTES = {
  dtcs: { label: 'Fault codes (list)', kind: 'text', unit: null },
  dtcCount: { label: 'Number of fault codes', kind: 'number', unit: null },
  dm1Dtc: { label: 'J1939 DM1 fault (SPN, FMI, occurrences)', kind: 'number', unit: null },
  dm1: { label: 'J1939 DM1 message (lamps and faults)', kind: 'bytes', unit: null },
} as const satisfies Record<string, { label: string; kind: 'number' | 'text' | 'bytes'; unit: null }>;

export type FaultAttribute = keyof typeof FAULT_ATTRIBUTES;
export const FAULT_ATTRIBUTE_NAMES = Object.keys(FAULT_ATTRIBUTES) as FaultAttribute[];

/**
 * Driver safety data as the ways in name it (issue 47, decision 0194), read by the safety follower.
 * `greenDrivingType` 1 harsh acceleration, 2 harsh braking, 3 harsh cornering, with `greenDrivingValue`
 * its strength (m/s²); a device model with "advanced eco driving" elements instead maps them to
 * `harshAcceleration`, `harshBraking` or `harshCornering` (the strength in m/s², its presence the event);
 * `overSpeeding` the speed (km/h) when the device's own over-speeding starts; `crash` and `jamming`
 * non-zero, `towing` true at the event; `idling` the device's idling state; `fuelUsed` litres in total.
 */
export const SAFETY_ATTRIBUTES = {
  greenDrivingType: { label: 'Green driving type (1 acceleration, 2 braking, 3 cornering)', kind: 'number', unit: null },
  greenDrivingValue: { label: 'Green driving strength', kind: 'number', unit: 'm/s²' },
  harshAcceleration: { label: 'Harsh acceleration (eco driving)', kind: 'number', unit: 'm/s²' },
  harshBraking: { label: 'Harsh braking (eco driving)', kind: 'number', unit: 'm/s²' },
  harshCornering: { label: 'Harsh cornering (eco driving)', kind: 'number', unit: 'm/s²' },
  overSpeeding: { label: 'Over-speeding', kind: 'number', unit: 'km/h' },
  idling: { label: 'Idling', kind: 'boolean', unit: null },
  crash: { label: 'Crash detection', kind: 'number', unit: null },
  towing: { label: 'Towing', kind: 'boolean', unit: null },
  jamming: { label: 'Jamming', kind: 'number', unit: null },
  fuelUsed: { label: 'Total fuel used', kind: 'number', unit: 'l' },
} as const satisfies Record<string, { label: string; kind: 'boolean' | 'number'; unit: string | null }>;
export type SafetyAttribute = keyof typeof SAFETY_ATTRIBUTES;

/**
 * The fuel in the tank as the ways in name it (issue 68, decision 0276), kept in a position's
 * `attributes` and read by the fuel-level follower: `fuelLevel` in percent of the tank (Teltonika 89
 * CAN or 48 OBD, the batch's `fuelLevel`, OsmAnd's `fuelLevel` parameter), `fuelLevelLitres` in litres
 * (Teltonika 84, Traccar's `fuel`). The vehicle's tank capacity turns one into the other.
 */
export const FUEL_LEVEL_ATTRIBUTES = {
  fuelLevel: { label: 'Fuel level', kind: 'number', unit: '%' },
  fuelLevelLitres: { label: 'Fuel level, litres', kind: 'number', unit: 'l' },
} as const satisfies Record<string, { label: string; kind: 'number'; unit: string }>;
export type FuelLevelAttribute = keyof typeof FUEL_LEVEL_ATTRIBUTES;
export const FUEL_LEVEL_ATTRIBUTE_NAMES = Object.keys(FUEL_LEVEL_ATTRIBUTES) as FuelLevelAttribute[];
