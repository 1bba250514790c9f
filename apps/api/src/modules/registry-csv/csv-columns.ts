import {
  UNIT_LABELS,
  lengthForDisplay,
  lengthMFromInput,
  odometerForDisplay,
  odometerKmFromInput,
  roundTo,
  volumeFromL,
  volumeToL,
  type Asset,
  type Driver,
  type Gateway,
  type ImportKind,
  type UnitSystem,
} from '@fleet/api-contract';

/**
 * The CSV columns of each record kind, shared by export, template and import. Headers are
 * matched loosely on import (case, spaces and punctuation ignored), so "Unit number",
 * "unit_number" and "unitNumber" all work. The odometer and trailer length columns follow the
 * organization's units ("Odometer (mi)" and "Length (ft)", or "Odometer (km)" and "Length (m)");
 * an import reads either, since the header names the unit, and a bare "Odometer" or "Length" in
 * the organization's units.
 */
export interface CsvColumn<R> {
  header: string;
  /** The input field it fills (import). */
  field: string;
  /** Other header spellings accepted on import, normalized. */
  aliases?: string[];
  /** Converts the cell to the input value; undefined leaves the field out (its default applies). */
  parse?: (cell: string) => unknown;
  example: string;
  value: (r: R) => string | number | boolean | null;
}

export const normalizeHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

const text = (cell: string) => (cell === '' ? null : cell);
/** A number cell ("120,000" too), converted to the metric value the API stores. */
const num = (toMetric: (v: number) => number) => (cell: string) => {
  if (cell === '') return null;
  const n = Number(cell.replace(/,/g, ''));
  return Number.isFinite(n) ? toMetric(n) : cell;
};
const plainNumber = num((v) => v);
const bool = (cell: string) => {
  const v = cell.trim().toLowerCase();
  if (v === '') return undefined;
  if (['yes', 'y', 'true', '1', 'x'].includes(v)) return true;
  if (['no', 'n', 'false', '0'].includes(v)) return false;
  return cell; // the schema reports it
};
const upperOrUndefined = (cell: string) => (cell === '' ? undefined : cell.toUpperCase().replace(/[\s-]/g, '_'));
const yesNo = (v: boolean) => (v ? 'yes' : 'no');

const ODOMETER_ALIASES: Record<UnitSystem, string[]> = { IMPERIAL: ['odometermiles', 'odometermi'], METRIC: ['odometerkilometres', 'odometerkilometers'] };
const LENGTH_ALIASES: Record<UnitSystem, string[]> = { IMPERIAL: ['lengthfeet', 'lengthft'], METRIC: ['lengthmetres', 'lengthmeters'] };

/** "Odometer (mi)" or "Odometer (km)": the value as the screens show it, read back to km. */
function odometerColumn(units: UnitSystem, bare: boolean): CsvColumn<Asset> {
  return {
    header: `Odometer (${UNIT_LABELS[units].distance})`,
    field: 'odometerKm',
    parse: num((v) => odometerKmFromInput(v, units)),
    aliases: [...ODOMETER_ALIASES[units], ...(bare ? ['odometer'] : [])],
    example: units === 'IMPERIAL' ? '412000' : '663050',
    value: (a) => (a.odometerKm === null ? null : odometerForDisplay(a.odometerKm, units)),
  };
}

/** "Length (ft)" or "Length (m)" of a trailer, read back to metres. */
function lengthColumn(units: UnitSystem, bare: boolean): CsvColumn<Asset> {
  return {
    header: `Length (${UNIT_LABELS[units].length})`,
    field: 'lengthM',
    parse: num((v) => lengthMFromInput(v, units)),
    aliases: [...LENGTH_ALIASES[units], ...(bare ? ['length'] : [])],
    example: units === 'IMPERIAL' ? '53' : '16.15',
    value: (a) => (a.lengthM === null ? null : lengthForDisplay(a.lengthM, units)),
  };
}

const TANK_ALIASES: Record<UnitSystem, string[]> = {
  IMPERIAL: ['tankcapacitygallons', 'tankcapacitygal', 'tankgal'],
  METRIC: ['tankcapacitylitres', 'tankcapacityliters', 'tankcapacityl', 'tankl'],
};

/** "Tank capacity (gal)" or "Tank capacity (L)" of a vehicle, read back to litres (issue 28). */
function tankColumn(units: UnitSystem, bare: boolean): CsvColumn<Asset> {
  return {
    header: `Tank capacity (${UNIT_LABELS[units].volume})`,
    field: 'tankCapacityL',
    parse: num((v) => roundTo(volumeToL(v, units), 3)),
    aliases: [...TANK_ALIASES[units], ...(bare ? ['tankcapacity', 'tank'] : [])],
    example: units === 'IMPERIAL' ? '300' : '1135',
    value: (a) => (a.tankCapacityL === null ? null : roundTo(volumeFromL(a.tankCapacityL, units), 1)),
  };
}

const vehicleColumns = (odometer: CsvColumn<Asset>, tank: CsvColumn<Asset>): CsvColumn<Asset>[] => [
  { header: 'Unit number', field: 'unitNumber', aliases: ['unit', 'unitno'], example: '131', value: (a) => a.unitNumber },
  { header: 'VIN', field: 'vin', example: '1FUJGLDR6LLAB1234', value: (a) => a.vin },
  { header: 'Make', field: 'make', parse: text, example: 'Freightliner', value: (a) => a.make },
  { header: 'Model', field: 'model', parse: text, example: 'Cascadia', value: (a) => a.model },
  { header: 'Year', field: 'year', parse: plainNumber, example: '2022', value: (a) => a.year },
  { header: 'Plate', field: 'plate', parse: text, aliases: ['licenseplate', 'licenceplate'], example: 'P123456', value: (a) => a.plate },
  { header: 'Plate state', field: 'plateState', parse: text, example: 'IL', value: (a) => a.plateState },
  { header: 'Fuel type', field: 'fuelType', parse: upperOrUndefined, example: 'DIESEL', value: (a) => a.fuelType },
  { header: 'IFTA qualified', field: 'iftaQualified', parse: bool, aliases: ['ifta'], example: 'yes', value: (a) => yesNo(a.iftaQualified) },
  odometer,
  tank,
  { header: 'Status', field: 'status', parse: upperOrUndefined, example: 'ACTIVE', value: (a) => a.status },
  { header: 'Notes', field: 'notes', parse: text, example: '', value: (a) => a.notes },
  // Export only: links.
  { header: 'Driver', field: '', example: '', value: (a) => (a.currentDriver ? `${a.currentDriver.firstName} ${a.currentDriver.lastName}` : null) },
  { header: 'Device', field: '', example: '', value: (a) => a.device?.uniqueId ?? null },
  { header: 'Trailers', field: '', example: '', value: (a) => a.trailers.map((t) => t.unitNumber).join(' ') || null },
  { header: 'Groups', field: '', example: '', value: (a) => a.groups.map((g) => g.name).join('; ') || null },
];

const trailerColumns = (length: CsvColumn<Asset>): CsvColumn<Asset>[] => [
  { header: 'Unit number', field: 'unitNumber', aliases: ['unit', 'unitno'], example: 'T-540', value: (a) => a.unitNumber },
  { header: 'VIN', field: 'vin', parse: text, example: '1UYVS2532LU123456', value: (a) => a.vin },
  { header: 'Make', field: 'make', parse: text, example: 'Utility', value: (a) => a.make },
  { header: 'Model', field: 'model', parse: text, example: '3000R', value: (a) => a.model },
  { header: 'Year', field: 'year', parse: plainNumber, example: '2020', value: (a) => a.year },
  { header: 'Trailer type', field: 'trailerType', parse: upperOrUndefined, aliases: ['type'], example: 'REEFER', value: (a) => a.trailerType },
  length,
  { header: 'Plate', field: 'plate', parse: text, aliases: ['licenseplate', 'licenceplate'], example: 'TR44821', value: (a) => a.plate },
  { header: 'Plate state', field: 'plateState', parse: text, example: 'IN', value: (a) => a.plateState },
  { header: 'Status', field: 'status', parse: upperOrUndefined, example: 'ACTIVE', value: (a) => a.status },
  { header: 'Notes', field: 'notes', parse: text, example: '', value: (a) => a.notes },
  { header: 'Attached to', field: '', example: '', value: (a) => a.attachedTo?.unitNumber ?? null },
  { header: 'Groups', field: '', example: '', value: (a) => a.groups.map((g) => g.name).join('; ') || null },
];

export const driverColumns: CsvColumn<Driver>[] = [
  { header: 'First name', field: 'firstName', example: 'Maria', value: (d) => d.firstName },
  { header: 'Last name', field: 'lastName', example: 'Lopez', value: (d) => d.lastName },
  { header: 'Email', field: 'email', parse: text, aliases: ['emailaddress'], example: 'maria.lopez@example.com', value: (d) => d.email },
  { header: 'Phone', field: 'phone', parse: text, example: '+1 312 555 0101', value: (d) => d.phone },
  { header: 'Employee id', field: 'employeeId', parse: text, aliases: ['employeeno', 'employeenumber'], example: 'E-1042', value: (d) => d.employeeId },
  { header: 'Licence number', field: 'licenseNumber', aliases: ['licensenumber', 'cdlnumber', 'cdl'], example: 'L12345678', value: (d) => d.licenseNumber },
  { header: 'Licence state', field: 'licenseState', aliases: ['licensestate', 'cdlstate'], example: 'IL', value: (d) => d.licenseState },
  {
    header: 'Licence class',
    field: 'licenseClass',
    parse: (c) => (c === '' ? null : c.toUpperCase().replace(/[\s-]/g, '_')),
    aliases: ['licenseclass'],
    example: 'A',
    value: (d) => d.licenseClass,
  },
  {
    header: 'Licence expiry',
    field: 'licenseExpiry',
    parse: text,
    aliases: ['licenseexpiry', 'licenseexpiration'],
    example: '2028-06-30',
    value: (d) => d.licenseExpiry,
  },
  {
    header: 'Home time zone',
    field: 'homeTimeZone',
    parse: (c) => (c === '' ? undefined : c),
    aliases: ['timezone'],
    example: 'America/Chicago',
    value: (d) => d.homeTimeZone,
  },
  { header: 'HoS ruleset', field: 'ruleset', parse: upperOrUndefined, aliases: ['ruleset'], example: 'US_PROPERTY_70_8', value: (d) => d.ruleset },
  { header: 'Short haul 150', field: 'shortHaul150', parse: bool, example: 'no', value: (d) => yesNo(d.shortHaul150) },
  { header: '16 hour', field: 'sixteenHour', parse: bool, aliases: ['sixteenhour'], example: 'no', value: (d) => yesNo(d.sixteenHour) },
  {
    header: 'Personal conveyance',
    field: 'personalConveyanceAllowed',
    parse: bool,
    aliases: ['personalconveyanceallowed'],
    example: 'yes',
    value: (d) => yesNo(d.personalConveyanceAllowed),
  },
  { header: 'Yard moves', field: 'yardMovesAllowed', parse: bool, aliases: ['yardmovesallowed'], example: 'yes', value: (d) => yesNo(d.yardMovesAllowed) },
  { header: 'ELD exempt', field: 'eldExempt', parse: bool, example: 'no', value: (d) => yesNo(d.eldExempt) },
  { header: 'ELD exempt reason', field: 'eldExemptReason', parse: text, example: '', value: (d) => d.eldExemptReason },
  { header: 'Status', field: 'status', parse: upperOrUndefined, example: 'ACTIVE', value: (d) => d.status },
  { header: 'Notes', field: 'notes', parse: text, example: '', value: (d) => d.notes },
  { header: 'Vehicle', field: '', example: '', value: (d) => d.vehicle?.unitNumber ?? null },
  { header: 'Groups', field: '', example: '', value: (d) => d.groups.map((g) => g.name).join('; ') || null },
];

export const gatewayColumns: CsvColumn<Gateway>[] = [
  { header: 'Unique id', field: 'uniqueId', example: '', value: (g) => g.uniqueId },
  { header: 'Name', field: 'name', example: '', value: (g) => g.name },
  { header: 'Device model', field: '', example: '', value: (g) => g.deviceModel?.name ?? null },
  { header: 'SIM phone', field: '', example: '', value: (g) => g.phone },
  { header: 'Firmware', field: '', example: '', value: (g) => g.firmware },
  { header: 'Status', field: '', example: '', value: (g) => g.status },
  { header: 'Vehicle', field: '', example: '', value: (g) => g.asset?.unitNumber ?? null },
  { header: 'Last seen (UTC)', field: '', example: '', value: (g) => g.lastSeenAt },
];

/** The export columns of vehicles or trailers, odometer and length in the organization's units. */
export const assetColumnsOf = (type: 'VEHICLE' | 'TRAILER', units: UnitSystem): CsvColumn<Asset>[] =>
  type === 'TRAILER' ? trailerColumns(lengthColumn(units, true)) : vehicleColumns(odometerColumn(units, true), tankColumn(units, true));

/** The columns of a kind's export and import template (its rows are what an import reads). */
export function columnsOf(kind: ImportKind, units: UnitSystem): ReadonlyArray<CsvColumn<never>> {
  if (kind === 'drivers') return driverColumns;
  return assetColumnsOf(kind === 'trailers' ? 'TRAILER' : 'VEHICLE', units);
}

/**
 * The columns an import reads: the template's, and the other unit system's odometer or length
 * column, so a file from before a units change (or from another carrier) still imports right.
 */
export function importColumnsOf(kind: ImportKind, units: UnitSystem): ReadonlyArray<CsvColumn<never>> {
  const otherUnits: UnitSystem = units === 'IMPERIAL' ? 'METRIC' : 'IMPERIAL';
  if (kind === 'vehicles') return [...columnsOf(kind, units), odometerColumn(otherUnits, false), tankColumn(otherUnits, false)];
  if (kind === 'trailers') return [...columnsOf(kind, units), lengthColumn(otherUnits, false)];
  return columnsOf(kind, units);
}
