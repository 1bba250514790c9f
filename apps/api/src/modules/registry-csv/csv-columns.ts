import { KM_PER_MILE, M_PER_FOOT, type Asset, type Driver, type Gateway, type ImportKind } from '@fleet/api-contract';

/**
 * The CSV columns of each record kind, shared by export, template and import. Headers are
 * matched loosely on import (case, spaces and punctuation ignored), so "Unit number",
 * "unit_number" and "unitNumber" all work. US carriers think in miles and feet: the odometer
 * and trailer length columns are in those units (km and metres are accepted too).
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
const num = (factor: number) => (cell: string) => {
  if (cell === '') return null;
  const n = Number(cell.replace(/,/g, ''));
  return Number.isFinite(n) ? Math.round(n * factor * 1000) / 1000 : cell;
};
const bool = (cell: string) => {
  const v = cell.trim().toLowerCase();
  if (v === '') return undefined;
  if (['yes', 'y', 'true', '1', 'x'].includes(v)) return true;
  if (['no', 'n', 'false', '0'].includes(v)) return false;
  return cell; // the schema reports it
};
const upperOrUndefined = (cell: string) => (cell === '' ? undefined : cell.toUpperCase().replace(/[\s-]/g, '_'));
const yesNo = (v: boolean) => (v ? 'yes' : 'no');
const odometerMi = (a: Asset) => (a.odometerKm === null ? null : Math.round(a.odometerKm / KM_PER_MILE));
const lengthFt = (a: Asset) => (a.lengthM === null ? null : Math.round((a.lengthM / M_PER_FOOT) * 10) / 10);

const vehicleColumns: CsvColumn<Asset>[] = [
  { header: 'Unit number', field: 'unitNumber', aliases: ['unit', 'unitno'], example: '131', value: (a) => a.unitNumber },
  { header: 'VIN', field: 'vin', example: '1FUJGLDR6LLAB1234', value: (a) => a.vin },
  { header: 'Make', field: 'make', parse: text, example: 'Freightliner', value: (a) => a.make },
  { header: 'Model', field: 'model', parse: text, example: 'Cascadia', value: (a) => a.model },
  { header: 'Year', field: 'year', parse: num(1), example: '2022', value: (a) => a.year },
  { header: 'Plate', field: 'plate', parse: text, aliases: ['licenseplate', 'licenceplate'], example: 'P123456', value: (a) => a.plate },
  { header: 'Plate state', field: 'plateState', parse: text, example: 'IL', value: (a) => a.plateState },
  { header: 'Fuel type', field: 'fuelType', parse: upperOrUndefined, example: 'DIESEL', value: (a) => a.fuelType },
  { header: 'IFTA qualified', field: 'iftaQualified', parse: bool, aliases: ['ifta'], example: 'yes', value: (a) => yesNo(a.iftaQualified) },
  { header: 'Odometer (mi)', field: 'odometerKm', parse: num(KM_PER_MILE), aliases: ['odometer', 'odometermiles'], example: '412000', value: odometerMi },
  { header: 'Status', field: 'status', parse: upperOrUndefined, example: 'ACTIVE', value: (a) => a.status },
  { header: 'Notes', field: 'notes', parse: text, example: '', value: (a) => a.notes },
  // Export only: links.
  { header: 'Driver', field: '', example: '', value: (a) => (a.currentDriver ? `${a.currentDriver.firstName} ${a.currentDriver.lastName}` : null) },
  { header: 'Device', field: '', example: '', value: (a) => a.device?.uniqueId ?? null },
  { header: 'Trailers', field: '', example: '', value: (a) => a.trailers.map((t) => t.unitNumber).join(' ') || null },
  { header: 'Groups', field: '', example: '', value: (a) => a.groups.map((g) => g.name).join('; ') || null },
];

const trailerColumns: CsvColumn<Asset>[] = [
  { header: 'Unit number', field: 'unitNumber', aliases: ['unit', 'unitno'], example: 'T-540', value: (a) => a.unitNumber },
  { header: 'VIN', field: 'vin', parse: text, example: '1UYVS2532LU123456', value: (a) => a.vin },
  { header: 'Make', field: 'make', parse: text, example: 'Utility', value: (a) => a.make },
  { header: 'Model', field: 'model', parse: text, example: '3000R', value: (a) => a.model },
  { header: 'Year', field: 'year', parse: num(1), example: '2020', value: (a) => a.year },
  { header: 'Trailer type', field: 'trailerType', parse: upperOrUndefined, aliases: ['type'], example: 'REEFER', value: (a) => a.trailerType },
  { header: 'Length (ft)', field: 'lengthM', parse: num(M_PER_FOOT), aliases: ['length', 'lengthfeet'], example: '53', value: lengthFt },
  { header: 'Plate', field: 'plate', parse: text, aliases: ['licenseplate', 'licenceplate'], example: 'TR44821', value: (a) => a.plate },
  { header: 'Plate state', field: 'plateState', parse: text, example: 'IN', value: (a) => a.plateState },
  { header: 'Status', field: 'status', parse: upperOrUndefined, example: 'ACTIVE', value: (a) => a.status },
  { header: 'Notes', field: 'notes', parse: text, example: '', value: (a) => a.notes },
  { header: 'Attached to', field: '', example: '', value: (a) => a.attachedTo?.unitNumber ?? null },
  { header: 'Groups', field: '', example: '', value: (a) => a.groups.map((g) => g.name).join('; ') || null },
];

const driverColumns: CsvColumn<Driver>[] = [
  { header: 'First name', field: 'firstName', example: 'Maria', value: (d) => d.firstName },
  { header: 'Last name', field: 'lastName', example: 'Lopez', value: (d) => d.lastName },
  { header: 'Email', field: 'email', parse: text, aliases: ['emailaddress'], example: 'maria.lopez@example.com', value: (d) => d.email },
  { header: 'Phone', field: 'phone', parse: text, example: '+1 312 555 0101', value: (d) => d.phone },
  { header: 'Employee id', field: 'employeeId', parse: text, aliases: ['employeeno', 'employeenumber'], example: 'E-1042', value: (d) => d.employeeId },
  { header: 'Licence number', field: 'licenseNumber', aliases: ['licensenumber', 'cdlnumber', 'cdl'], example: 'L12345678', value: (d) => d.licenseNumber },
  { header: 'Licence state', field: 'licenseState', aliases: ['licensestate', 'cdlstate'], example: 'IL', value: (d) => d.licenseState },
  { header: 'Licence class', field: 'licenseClass', parse: (c) => (c === '' ? null : c.toUpperCase().replace(/[\s-]/g, '_')), aliases: ['licenseclass'], example: 'A', value: (d) => d.licenseClass },
  { header: 'Licence expiry', field: 'licenseExpiry', parse: text, aliases: ['licenseexpiry', 'licenseexpiration'], example: '2028-06-30', value: (d) => d.licenseExpiry },
  { header: 'Home time zone', field: 'homeTimeZone', parse: (c) => (c === '' ? undefined : c), aliases: ['timezone'], example: 'America/Chicago', value: (d) => d.homeTimeZone },
  { header: 'HoS ruleset', field: 'ruleset', parse: upperOrUndefined, aliases: ['ruleset'], example: 'US_PROPERTY_70_8', value: (d) => d.ruleset },
  { header: 'Short haul 150', field: 'shortHaul150', parse: bool, example: 'no', value: (d) => yesNo(d.shortHaul150) },
  { header: '16 hour', field: 'sixteenHour', parse: bool, aliases: ['sixteenhour'], example: 'no', value: (d) => yesNo(d.sixteenHour) },
  { header: 'Personal conveyance', field: 'personalConveyanceAllowed', parse: bool, aliases: ['personalconveyanceallowed'], example: 'yes', value: (d) => yesNo(d.personalConveyanceAllowed) },
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
  { header: 'Last seen', field: '', example: '', value: (g) => g.lastSeenAt },
];

export const COLUMNS = { vehicles: vehicleColumns, trailers: trailerColumns, drivers: driverColumns } as const;
export type ColumnsOf<K extends ImportKind> = (typeof COLUMNS)[K];
