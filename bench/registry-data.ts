// Synthetic fleet registry CSV files for the registry benchmarks: 5,000-row imports of vehicles
// and drivers whose values look like a carrier's (makes, states, names, licences).
import { withVinCheckDigit } from '@fleet/api-contract';

const MAKES = [
  ['Freightliner', 'Cascadia'],
  ['Kenworth', 'T680'],
  ['Peterbilt', '579'],
  ['Volvo', 'VNL 860'],
  ['International', 'LT625'],
  ['Mack', 'Anthem'],
] as const;
const STATES = ['IL', 'IN', 'OH', 'TX', 'GA', 'TN', 'CO', 'CA', 'AZ', 'PA', 'WI', 'MN', 'MO', 'KY', 'NC'];
const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Patricia',
  'David',
  'Jennifer',
  'William',
  'Elizabeth',
  'Carlos',
  'Aisha',
  'Wei',
  'Olga',
  'Tyrone',
  'Priya',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
];

/** Vehicles B{from}..B{from+count-1} with valid VINs (check digit), plates and odometers. */
export function vehiclesCsv(from: number, count: number): string {
  const lines = ['Unit number,VIN,Make,Model,Year,Plate,Plate state,Fuel type,IFTA qualified,Odometer (mi)'];
  for (let i = from; i < from + count; i++) {
    const [make, model] = MAKES[i % MAKES.length] as (typeof MAKES)[number];
    const vin = withVinCheckDigit(`1XKYD49X0N${String.fromCharCode(65 + (i % 8))}${String(i).padStart(6, '0')}`);
    lines.push(
      `B${String(i).padStart(5, '0')},${vin},${make},${model},${2015 + (i % 11)},P${String(i * 7).padStart(6, '0')},${STATES[i % STATES.length]},DIESEL,yes,${50_000 + ((i * 7919) % 600_000)}`,
    );
  }
  return lines.join('\n');
}

/** Drivers with unique licences D{i} and e-mails. */
export function driversCsv(from: number, count: number): string {
  const lines = ['First name,Last name,Email,Employee id,Licence number,Licence state,Licence class,Home time zone'];
  for (let i = from; i < from + count; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[(i * 7) % LAST.length] as string;
    lines.push(
      `${first},${last},${first.toLowerCase()}.${last.toLowerCase()}${i}@bench.test,EMP${i},D${String(i).padStart(8, '0')},${STATES[i % STATES.length]},A,America/Chicago`,
    );
  }
  return lines.join('\n');
}

// Searches a dispatcher types: unit fragments, VIN tails, makes, plates; names, licences.
const vehicleSearches = ['b0042', 'b1234', 'kenworth', 'volvo', '00777', 'p0049', 'vnl', 'b099'];
const driverSearches = ['garcia', 'maria', 'd0000123', 'emp77', 'lopez', 'wei', 'bench.test', 'smith'];

// Terms a fleet of dispatchers would type over a morning, no two alike: unit, plate and VIN
// fragments of every length, makes and models.
const distinctVehicleSearches = Array.from({ length: 240 }, (_, k) => {
  const n = (k * 7919) % 10000;
  switch (k % 6) {
    case 0:
      return `b${String(n)
        .padStart(5, '0')
        .slice(0, 2 + (k % 4))}`;
    case 1:
      return `p${String(n * 7)
        .padStart(6, '0')
        .slice(0, 3 + (k % 3))}`;
    case 2:
      return String(n)
        .padStart(6, '0')
        .slice(k % 3);
    case 3:
      return ['freight', 'kenw', 'peterb', 'volvo', 'internat', 'mack', 'cascadia', 't680', 'vnl 8', 'lt62', 'anthem', '579'][k % 12] as string;
    case 4:
      return `1xkyd49x0n${String.fromCharCode(97 + (k % 8))}${String(n)
        .padStart(6, '0')
        .slice(0, k % 4)}`;
    default:
      return `${String(n).padStart(5, '0').slice(1, 4)}`;
  }
});

/** The request paths of each list scenario, under the organization's path prefix. */
export function listScenarios(prefix: string): Array<{ name: string; paths: string[] }> {
  const mixed = distinctVehicleSearches.map(
    (s, k) => `${prefix}/assets?type=VEHICLE&search=${s}&sort=${['unitNumber,asc', 'year,desc', 'make,asc'][k % 3]}&size=15`,
  );
  return [
    {
      name: 'vehicles: search + sort, page of 15',
      paths: vehicleSearches.flatMap((s) => [
        `${prefix}/assets?type=VEHICLE&search=${s}&sort=unitNumber,asc&size=15`,
        `${prefix}/assets?type=VEHICLE&search=${s}&sort=year,desc&size=15&page=1`,
      ]),
    },
    {
      name: 'drivers: search + sort, page of 15',
      paths: driverSearches.flatMap((s) => [
        `${prefix}/drivers?search=${s}&sort=lastName,asc&size=15`,
        `${prefix}/drivers?search=${s}&sort=licenseExpiry,desc&size=15`,
      ]),
    },
    { name: 'vehicles: no search, sorted by unit, page 40', paths: [`${prefix}/assets?type=VEHICLE&sort=unitNumber,asc&size=15&page=40`] },
    { name: `vehicles: ${new Set(mixed).size} different searched pages, 3 sorts`, paths: mixed },
  ];
}
