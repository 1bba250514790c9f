import {
  TELTONIKA_DEFAULT_IO_MAP,
  withVinCheckDigit,
  type EngineAttribute,
  type FaultAttribute,
  type FuelLevelAttribute,
  type SafetyAttribute,
} from '@fleet/api-contract';
import { dtcValue } from '../../modules/engine-faults/index.ts';
import type { AvlRecord } from '../../modules/positions/pipeline/teltonika/codec.ts';
import { DEMO_FUEL_SENSORS, demoFuelRaw, type FuelIncident } from './fuel-sensor.ts';
import { TruckPlan, type TruckState } from './truck-plan.ts';

// What a demo truck's Teltonika FMC650 with its CAN/J1939 adapter reads from the engine (decision
// 0156): ignition, the ECM's total vehicle distance and engine hours, rpm, the ECM's speed, the
// battery voltage, the VIN and the engine's total fuel used (decision 0280), as the raw IO elements
// of Teltonika's default map. The truck plan
// knows where the truck is, how far it has gone and how long its engine has run since the plan's
// epoch; each truck's counters start from its own realistic values there.

const MILE_M = 1609.344;

/** The IO element id the default map gives an attribute (the highest, where two name it: CAN's before OBD's), and the factor from raw to its unit. */
function element(attribute: EngineAttribute | FaultAttribute | SafetyAttribute | FuelLevelAttribute): { id: number; multiplier: number } {
  const found = Object.entries(TELTONIKA_DEFAULT_IO_MAP).findLast(([, e]) => e.attribute === attribute);
  if (!found) throw new Error(`Teltonika's default IO map has no ${attribute}`);
  return { id: Number(found[0]), multiplier: found[1].multiplier ?? 1 };
}

/** The elements the demo devices report, by attribute. */
export const IO = {
  ignition: element('ignition'),
  motion: element('motion'),
  power: element('power'),
  gpsOdometer: element('gpsOdometer'),
  vehicleSpeed: element('vehicleSpeed'),
  rpm: element('rpm'),
  vehicleOdometer: element('vehicleOdometer'),
  engineHours: element('engineHours'),
  fuelUsed: element('fuelUsed'),
  vin: element('vin'),
  dm1Dtc: element('dm1Dtc'),
  // The fuel-level sensors of tractors 110 and 116 (decision 0276): CAN percent, LV-CAN litres.
  fuelLevel: element('fuelLevel'),
  fuelLevelLitres: element('fuelLevelLitres'),
} as const;

/**
 * The demo truck whose engine has an active fault (decision 0191): tractor 108's coolant runs hot,
 * J1939 SPN 110 FMI 16, seen three times. Its FMC650 sends it in each record while the engine runs
 * (a real one sends it once after each ignition on: both keep the fault active). The history
 * backfill leaves it out; the seeded fault episode stands for the days before.
 */
export const DEMO_FAULT = { index: 8, spn: 110, fmi: 16, occurrences: 3 } as const;

/** A Teltonika truck: its device, its vehicle's VIN and its engine counters at the plan's epoch. */
export interface EngineProfile {
  index: number;
  imei: string;
  vin: string;
  /** Metres added to the plan's odometer to give the ECM's total distance. */
  odometerOffsetM: number;
  /** Engine hours at the epoch. */
  hoursAtEpoch: number;
  /** Litres a driven kilometre burns beyond the engine's running (this truck's load and driver). */
  litresPerKm: number;
}

/**
 * The engine's fuel: 3 L an engine hour (a class 8 diesel idling) and, on the road, 0.30-0.37 L a
 * kilometre more per truck, so a loaded truck at 90-105 km/h makes 5.8-7.1 mpg (about 6.5 mpg).
 */
const IDLE_L_PER_H = 3;

/**
 * The ECM's total distance at the plan's epoch (1 January 2026) is 320,000-580,000 miles, a year of
 * the plan adding about 100,000; the hour meter starts near what such a truck has run (about 42 miles
 * an engine hour). `vin`: the vehicle's from the registry, else one made up.
 */
export function engineProfile(index: number, imei: string, vin: string | null): EngineProfile {
  const milesAtEpoch = 320_000 + ((index * 61_813) % 260_000);
  return {
    index,
    imei,
    vin: vin && vin.length === 17 ? vin : withVinCheckDigit(`1XKYD49X0NA${String(300_000 + index * 7).slice(-6)}`),
    odometerOffsetM: milesAtEpoch * MILE_M - new TruckPlan(index).startOdometerM,
    hoursAtEpoch: Math.round(milesAtEpoch / 42),
    litresPerKm: 0.3 + (index % 7) * 0.012,
  };
}

/** The raw IO values a record carries (the VIN aside), as the device reads them. */
export interface EngineIo {
  ignition: 0 | 1;
  motion: 0 | 1;
  /** External (battery) voltage, mV: 12 V system, charging while the engine runs. */
  powerMv: number;
  gpsOdometerM: number;
  vehicleSpeedKmh: number;
  rpm: number;
  vehicleOdometerM: number;
  engineMinutes: number;
  /** The engine's total fuel used, 0.1 L (IO 83's unit). */
  fuelUsedDl: number;
  /** The fuel-level sensor's raw value (percent, or 0.1 l); -1 for a truck without one. */
  fuelRaw: number;
}

/** The engine's readings in state `s` at time `t` (deterministic: the backfill and the live device agree; the backfill alone knows a fuel incident). */
export function engineIo(p: EngineProfile, t: number, s: TruckState, incident: FuelIncident | null = null): EngineIo {
  const wobble = Math.sin(t / 11_000 + p.index);
  const driving = s.ignition && s.speed > 0;
  return {
    ignition: s.ignition ? 1 : 0,
    motion: s.speed > 0 ? 1 : 0,
    powerMv: Math.round(s.ignition ? 14_050 + (p.index % 5) * 30 + wobble * 40 : 12_580 + (p.index % 4) * 25 + wobble * 15),
    gpsOdometerM: Math.round(s.odometer),
    vehicleSpeedKmh: Math.round(s.speed),
    // Idle ~650 rpm; on the road 1,200-1,600 with the cruise speed (92-106 km/h, top gear).
    rpm: !s.ignition ? 0 : driving ? Math.round(Math.min(1_600, Math.max(1_200, 1_200 + (s.speed - 88) * 22 + wobble * 25))) : Math.round(650 + wobble * 12),
    vehicleOdometerM: Math.round(p.odometerOffsetM + s.odometer),
    engineMinutes: Math.floor(p.hoursAtEpoch * 60 + s.engineMs / 60_000),
    // Rises with the ECM's distance and the engine's hours, so only while the ignition is on (about
    // 300,000 L over a 500,000-mile life at the epoch).
    fuelUsedDl: Math.floor(10 * (((p.odometerOffsetM + s.odometer) / 1000) * p.litresPerKm + (p.hoursAtEpoch + s.engineMs / 3_600_000) * IDLE_L_PER_H)),
    fuelRaw: demoFuelRaw(p.index, t, s, incident) ?? -1,
  };
}

/** The record's IO elements by id, as the device encodes them (the VIN's ASCII bytes in 8E's variable-length group); `index`: the truck, whose sensor names the fuel element. */
export function ioElements(e: EngineIo, vin: Buffer, index?: number): Map<number, number | bigint | Buffer> {
  const io = new Map<number, number | bigint | Buffer>([
    [IO.ignition.id, e.ignition],
    [IO.motion.id, e.motion],
    [IO.power.id, e.powerMv],
    [IO.gpsOdometer.id, e.gpsOdometerM],
    [IO.vehicleSpeed.id, e.vehicleSpeedKmh],
    [IO.rpm.id, e.rpm],
    [IO.vehicleOdometer.id, e.vehicleOdometerM],
    [IO.engineHours.id, e.engineMinutes],
    [IO.fuelUsed.id, e.fuelUsedDl],
    [IO.vin.id, vin],
  ]);
  const sensor = index === undefined ? undefined : DEMO_FUEL_SENSORS.get(index);
  if (sensor && e.fuelRaw >= 0) io.set(sensor === 'PERCENT' ? IO.fuelLevel.id : IO.fuelLevelLitres.id, e.fuelRaw);
  return io;
}

/** Satellites in view: 11-15, changing by the minute. */
export const satellitesAt = (t: number): number => 11 + (Math.floor(t / 60_000) % 5);

/** High priority for a record an IO event caused (an ignition change), low for a periodic one. */
export const priorityOf = (eventIoId: number): number => (eventIoId ? 1 : 0);

/**
 * The AVL record an FMC650 would store for this state: `eventIoId` is the element that caused it
 * (ignition on a change, 0 for a periodic record). Coordinates at the wire's 1e-7 degrees.
 */
export function avlRecord(p: EngineProfile, t: number, s: TruckState, eventIoId = 0, vin: Buffer = Buffer.from(p.vin, 'ascii')): AvlRecord {
  return {
    timestamp: t,
    priority: priorityOf(eventIoId),
    longitude: s.lon,
    latitude: s.lat,
    altitude: 250,
    angle: Math.round(s.course) % 360,
    satellites: satellitesAt(t),
    speed: Math.round(s.speed),
    eventIoId,
    io: withFault(p, s, ioElements(engineIo(p, t, s), vin, p.index)),
  };
}

/** The demo fault's DM1 element on its truck's records while the engine runs. */
function withFault(p: EngineProfile, s: TruckState, io: Map<number, number | bigint | Buffer>): Map<number, number | bigint | Buffer> {
  if (p.index === DEMO_FAULT.index && s.ignition) io.set(IO.dm1Dtc.id, dtcValue(DEMO_FAULT.spn, DEMO_FAULT.fmi, DEMO_FAULT.occurrences));
  return io;
}
