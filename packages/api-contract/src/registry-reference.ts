import { RULESET_IDS } from '@fleet/hos/ruleset-facts';

/** US states (with DC and territories that register vehicles) and Canadian provinces and territories. */
export const JURISDICTIONS = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
  ['PR', 'Puerto Rico'],
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NS', 'Nova Scotia'],
  ['NT', 'Northwest Territories'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
] as const;

const CANADIAN = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

export type JurisdictionCode = (typeof JURISDICTIONS)[number][0];
export const JURISDICTION_CODES = JURISDICTIONS.map(([code]) => code) as [JurisdictionCode, ...JurisdictionCode[]];

export interface StateOption {
  code: JurisdictionCode;
  name: string;
  country: 'US' | 'CA';
}
export const STATE_OPTIONS: StateOption[] = JURISDICTIONS.map(([code, name]) => ({ code, name, country: CANADIAN.has(code) ? 'CA' : 'US' }));

/** Home-terminal time zones offered for US and Canadian carriers (IANA ids). */
export const US_TIME_ZONES = [
  { id: 'America/New_York', label: 'Eastern (New York)' },
  { id: 'America/Detroit', label: 'Eastern (Detroit)' },
  { id: 'America/Indiana/Indianapolis', label: 'Eastern (Indianapolis)' },
  { id: 'America/Kentucky/Louisville', label: 'Eastern (Louisville)' },
  { id: 'America/Chicago', label: 'Central (Chicago)' },
  { id: 'America/Indiana/Knox', label: 'Central (Knox, Indiana)' },
  { id: 'America/Menominee', label: 'Central (Menominee)' },
  { id: 'America/North_Dakota/Center', label: 'Central (North Dakota)' },
  { id: 'America/Denver', label: 'Mountain (Denver)' },
  { id: 'America/Boise', label: 'Mountain (Boise)' },
  { id: 'America/Phoenix', label: 'Mountain, no DST (Phoenix)' },
  { id: 'America/Los_Angeles', label: 'Pacific (Los Angeles)' },
  { id: 'America/Anchorage', label: 'Alaska (Anchorage)' },
  { id: 'Pacific/Honolulu', label: 'Hawaii (Honolulu)' },
  { id: 'America/Halifax', label: 'Atlantic (Halifax)' },
  { id: 'America/St_Johns', label: "Newfoundland (St. John's)" },
  { id: 'America/Toronto', label: 'Eastern (Toronto)' },
  { id: 'America/Winnipeg', label: 'Central (Winnipeg)' },
  { id: 'America/Regina', label: 'Central, no DST (Regina)' },
  { id: 'America/Edmonton', label: 'Mountain (Edmonton)' },
  { id: 'America/Vancouver', label: 'Pacific (Vancouver)' },
  { id: 'America/Puerto_Rico', label: 'Atlantic, no DST (Puerto Rico)' },
] as const;

/** IFTA fuel types (the tax-rate matrix columns); "Special Diesel" is the truck diesel column. */
export const FUEL_TYPES = [
  ['DIESEL', 'Special Diesel'],
  ['GASOLINE', 'Gasoline'],
  ['GASOHOL', 'Gasohol'],
  ['PROPANE', 'Propane'],
  ['LNG', 'LNG'],
  ['CNG', 'CNG'],
  ['ETHANOL', 'Ethanol'],
  ['METHANOL', 'Methanol'],
  ['E85', 'E-85'],
  ['M85', 'M-85'],
  ['A55', 'A55'],
  ['BIODIESEL', 'Biodiesel'],
  ['ELECTRICITY', 'Electricity'],
  ['HYDROGEN', 'Hydrogen'],
  ['HYTHANE', 'Hythane'],
] as const;
export type FuelType = (typeof FUEL_TYPES)[number][0];
export const FUEL_TYPE_CODES = FUEL_TYPES.map(([c]) => c) as [FuelType, ...FuelType[]];

export const TRAILER_TYPES = [
  ['DRY_VAN', 'Dry van'],
  ['REEFER', 'Reefer'],
  ['FLATBED', 'Flatbed'],
  ['TANKER', 'Tanker'],
  ['OTHER', 'Other'],
] as const;
export type TrailerType = (typeof TRAILER_TYPES)[number][0];
export const TRAILER_TYPE_CODES = TRAILER_TYPES.map(([c]) => c) as [TrailerType, ...TrailerType[]];

/** Commercial driver's licence classes (A, B, C) and a non-CDL licence. */
export const LICENSE_CLASSES = ['A', 'B', 'C', 'NON_CDL'] as const;

/** Hours-of-service rulesets a driver can be placed on (packages/hos). */
export const HOS_RULESETS = RULESET_IDS;

export const RECORD_STATUSES = ['ACTIVE', 'INACTIVE'] as const;

/** Unit systems an organization can display; data is stored metric. */
export const UNIT_SYSTEM_DETAILS = [
  { id: 'IMPERIAL', label: 'US (miles, gallons, °F, feet, lb)', distance: 'mi', volume: 'gal', temperature: 'F', length: 'ft', weight: 'lb', speed: 'mph' },
  {
    id: 'METRIC',
    label: 'Metric (kilometres, litres, °C, metres, kg)',
    distance: 'km',
    volume: 'L',
    temperature: 'C',
    length: 'm',
    weight: 'kg',
    speed: 'km/h',
  },
] as const;
