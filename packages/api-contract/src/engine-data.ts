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

/**
 * What an IO element measures, beyond its attribute's name (decision 0323): a temperature (°C, kept
 * as a reading of its sensor), a relative humidity (%), a sensor's battery (% or V by its unit), a fuel
 * level, a driver's identification card (iButton or RFID, kept as hex) or a magnet (a door: 1 closed).
 */
export const IO_MEANINGS = ['temperature', 'humidity', 'battery', 'fuelLevel', 'driverCard', 'magnet'] as const;
export type IoMeaning = (typeof IO_MEANINGS)[number];

/**
 * One numbered IO element: the attribute it becomes, the factor from its raw value to the attribute's
 * unit (negative or fractional), whether the raw value is signed (two's complement of the width it came
 * with: a BLE sensor's 0xfb5d is -1187), the unit the factor gives, what it measures, and the raw
 * values that mean "no reading" (a BLE temperature's 3000: sensor not found).
 */
export const ioMapEntrySchema = z.object({
  attribute: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,39}$/, 'Attribute must be a name of letters and digits'),
  multiplier: z
    .number()
    .finite()
    .refine((v) => v !== 0, 'Multiplier must not be 0')
    .optional(),
  signed: z.boolean().optional(),
  unit: z.string().trim().min(1).max(16).optional(),
  meaning: z.enum(IO_MEANINGS).optional(),
  noReading: z.array(z.number().int()).max(16).optional(),
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
  // Cold chain and identification (issue 73, decision 0323), as Teltonika's FMB AVL ID list gives them:
  // BLE temperature sensors #1-4 (2 bytes signed, 0.01 °C; 3000 not found, 4000 failed), the EYE
  // sensor's temperatures #1-4 (10800-10803, likewise), humidity (10804-10807, %) and magnet (10808-10811), BLE humidity #1-4 (0.1 %RH; 65535 none), BLE battery
  // #1-4 (29, 20, 22, 23; %), 1-Wire (Dallas) temperature #1-4 (4 bytes signed, 0.1 °C; 850 not ready, 2000 read error,
  // 3000 not connected, 4000 id failed, 5000 same id), the iButton (78) and the RFID card (207).
  '25': { attribute: 'bleTemp1', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '26': { attribute: 'bleTemp2', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '27': { attribute: 'bleTemp3', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '28': { attribute: 'bleTemp4', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '10800': { attribute: 'eyeTemp1', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '10801': { attribute: 'eyeTemp2', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '10802': { attribute: 'eyeTemp3', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '10803': { attribute: 'eyeTemp4', multiplier: 0.01, signed: true, unit: '°C', meaning: 'temperature', noReading: [3000, 4000] },
  '10804': { attribute: 'eyeHumidity1', unit: '%', meaning: 'humidity' },
  '10805': { attribute: 'eyeHumidity2', unit: '%', meaning: 'humidity' },
  '10806': { attribute: 'eyeHumidity3', unit: '%', meaning: 'humidity' },
  '10807': { attribute: 'eyeHumidity4', unit: '%', meaning: 'humidity' },
  '10808': { attribute: 'eyeMagnet1', meaning: 'magnet' },
  '10809': { attribute: 'eyeMagnet2', meaning: 'magnet' },
  '10810': { attribute: 'eyeMagnet3', meaning: 'magnet' },
  '10811': { attribute: 'eyeMagnet4', meaning: 'magnet' },
  '86': { attribute: 'bleHumidity1', multiplier: 0.1, unit: '%', meaning: 'humidity', noReading: [65535] },
  '104': { attribute: 'bleHumidity2', multiplier: 0.1, unit: '%', meaning: 'humidity', noReading: [65535] },
  '106': { attribute: 'bleHumidity3', multiplier: 0.1, unit: '%', meaning: 'humidity', noReading: [65535] },
  '108': { attribute: 'bleHumidity4', multiplier: 0.1, unit: '%', meaning: 'humidity', noReading: [65535] },
  '29': { attribute: 'bleBattery1', unit: '%', meaning: 'battery' },
  '20': { attribute: 'bleBattery2', unit: '%', meaning: 'battery' },
  '22': { attribute: 'bleBattery3', unit: '%', meaning: 'battery' },
  '23': { attribute: 'bleBattery4', unit: '%', meaning: 'battery' },
  '72': { attribute: 'dallasTemp1', multiplier: 0.1, signed: true, unit: '°C', meaning: 'temperature', noReading: [850, 2000, 3000, 4000, 5000] },
  '73': { attribute: 'dallasTemp2', multiplier: 0.1, signed: true, unit: '°C', meaning: 'temperature', noReading: [850, 2000, 3000, 4000, 5000] },
  '74': { attribute: 'dallasTemp3', multiplier: 0.1, signed: true, unit: '°C', meaning: 'temperature', noReading: [850, 2000, 3000, 4000, 5000] },
  '75': { attribute: 'dallasTemp4', multiplier: 0.1, signed: true, unit: '°C', meaning: 'temperature', noReading: [850, 2000, 3000, 4000, 5000] },
  '78': { attribute: 'driverCard', meaning: 'driverCard', noReading: [0] },
  '207': { attribute: 'driverCard', meaning: 'driverCard', noReading: [0] },
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
