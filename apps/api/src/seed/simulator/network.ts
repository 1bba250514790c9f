import { highwayRoute } from '@fleet/geo/highways';
import type { LatLon } from '@fleet/geo';

// A coarse US interstate network: cities joined where an interstate runs between them. Trucks
// choose their way over these links, and drive each link along the bundled road geometry
// (roadGeometry: Natural Earth roads, @fleet/geo/highways), so their tracks follow the real roads
// and cross state lines where the highways do. Coordinates are the cities' centres.

export interface City {
  name: string;
  lat: number;
  lon: number;
}

export const CITIES: Record<string, City> = {
  SEA: { name: 'Seattle, WA', lat: 47.6062, lon: -122.3321 },
  PDX: { name: 'Portland, OR', lat: 45.5152, lon: -122.6784 },
  SAC: { name: 'Sacramento, CA', lat: 38.5816, lon: -121.4944 },
  SFO: { name: 'Oakland, CA', lat: 37.8044, lon: -122.2712 },
  LAX: { name: 'Los Angeles, CA', lat: 34.0522, lon: -118.2437 },
  BAR: { name: 'Barstow, CA', lat: 34.8958, lon: -117.0173 },
  LAS: { name: 'Las Vegas, NV', lat: 36.1699, lon: -115.1398 },
  RNO: { name: 'Reno, NV', lat: 39.5296, lon: -119.8138 },
  SLC: { name: 'Salt Lake City, UT', lat: 40.7608, lon: -111.891 },
  BOI: { name: 'Boise, ID', lat: 43.615, lon: -116.2023 },
  PHX: { name: 'Phoenix, AZ', lat: 33.4484, lon: -112.074 },
  TUS: { name: 'Tucson, AZ', lat: 32.2226, lon: -110.9747 },
  FLG: { name: 'Flagstaff, AZ', lat: 35.1983, lon: -111.6513 },
  ABQ: { name: 'Albuquerque, NM', lat: 35.0844, lon: -106.6504 },
  ELP: { name: 'El Paso, TX', lat: 31.7619, lon: -106.485 },
  DEN: { name: 'Denver, CO', lat: 39.7392, lon: -104.9903 },
  CHY: { name: 'Cheyenne, WY', lat: 41.14, lon: -104.8202 },
  AMA: { name: 'Amarillo, TX', lat: 35.222, lon: -101.8313 },
  OKC: { name: 'Oklahoma City, OK', lat: 35.4676, lon: -97.5164 },
  DFW: { name: 'Dallas, TX', lat: 32.7767, lon: -96.797 },
  SAT: { name: 'San Antonio, TX', lat: 29.4241, lon: -98.4936 },
  HOU: { name: 'Houston, TX', lat: 29.7604, lon: -95.3698 },
  BTR: { name: 'Baton Rouge, LA', lat: 30.4515, lon: -91.1871 },
  MSY: { name: 'New Orleans, LA', lat: 29.9511, lon: -90.0715 },
  MOB: { name: 'Mobile, AL', lat: 30.6954, lon: -88.0399 },
  JAX: { name: 'Jacksonville, FL', lat: 30.3322, lon: -81.6557 },
  TXK: { name: 'Texarkana, TX', lat: 33.4251, lon: -94.0477 },
  LIT: { name: 'Little Rock, AR', lat: 34.7465, lon: -92.2896 },
  MEM: { name: 'Memphis, TN', lat: 35.1495, lon: -90.049 },
  BNA: { name: 'Nashville, TN', lat: 36.1627, lon: -86.7816 },
  BHM: { name: 'Birmingham, AL', lat: 33.5186, lon: -86.8104 },
  ATL: { name: 'Atlanta, GA', lat: 33.749, lon: -84.388 },
  CLT: { name: 'Charlotte, NC', lat: 35.2271, lon: -80.8431 },
  RIC: { name: 'Richmond, VA', lat: 37.5407, lon: -77.436 },
  WAS: { name: 'Washington, DC', lat: 38.9072, lon: -77.0369 },
  PHL: { name: 'Philadelphia, PA', lat: 39.9526, lon: -75.1652 },
  NYC: { name: 'Newark, NJ', lat: 40.7357, lon: -74.1724 },
  BOS: { name: 'Boston, MA', lat: 42.3601, lon: -71.0589 },
  ALB: { name: 'Albany, NY', lat: 42.6526, lon: -73.7562 },
  BUF: { name: 'Buffalo, NY', lat: 42.8864, lon: -78.8784 },
  CLE: { name: 'Cleveland, OH', lat: 41.4993, lon: -81.6944 },
  PIT: { name: 'Pittsburgh, PA', lat: 40.4406, lon: -79.9959 },
  HAR: { name: 'Harrisburg, PA', lat: 40.2732, lon: -76.8867 },
  CMH: { name: 'Columbus, OH', lat: 39.9612, lon: -82.9988 },
  IND: { name: 'Indianapolis, IN', lat: 39.7684, lon: -86.1581 },
  CHI: { name: 'Chicago, IL', lat: 41.8781, lon: -87.6298 },
  STL: { name: 'St. Louis, MO', lat: 38.627, lon: -90.1994 },
  MKC: { name: 'Kansas City, MO', lat: 39.0997, lon: -94.5786 },
  OMA: { name: 'Omaha, NE', lat: 41.2565, lon: -95.9345 },
  DSM: { name: 'Des Moines, IA', lat: 41.5868, lon: -93.625 },
  MSP: { name: 'Minneapolis, MN', lat: 44.9778, lon: -93.265 },
  MKE: { name: 'Milwaukee, WI', lat: 43.0389, lon: -87.9065 },
  DET: { name: 'Detroit, MI', lat: 42.3314, lon: -83.0458 },
  LOU: { name: 'Louisville, KY', lat: 38.2527, lon: -85.7585 },
  KNX: { name: 'Knoxville, TN', lat: 35.9606, lon: -83.9207 },
  WIC: { name: 'Wichita, KS', lat: 37.6872, lon: -97.3301 },
};

/** Interstate links between the cities above. */
export const ROADS: ReadonlyArray<[string, string]> = [
  ['SEA', 'PDX'],
  ['PDX', 'SAC'],
  ['SAC', 'SFO'],
  ['SFO', 'LAX'],
  ['SAC', 'RNO'],
  ['RNO', 'SLC'],
  ['PDX', 'BOI'],
  ['BOI', 'SLC'],
  ['LAX', 'BAR'],
  ['BAR', 'LAS'],
  ['LAS', 'SLC'],
  ['BAR', 'FLG'],
  ['LAX', 'PHX'],
  ['PHX', 'TUS'],
  ['TUS', 'ELP'],
  ['PHX', 'FLG'],
  ['FLG', 'ABQ'],
  ['ABQ', 'AMA'],
  ['ABQ', 'ELP'],
  ['ABQ', 'DEN'],
  ['SLC', 'CHY'],
  ['CHY', 'DEN'],
  ['CHY', 'OMA'],
  ['DEN', 'MKC'],
  ['AMA', 'OKC'],
  ['OKC', 'DFW'],
  ['OKC', 'WIC'],
  ['WIC', 'MKC'],
  ['OKC', 'LIT'],
  ['ELP', 'SAT'],
  ['SAT', 'HOU'],
  ['SAT', 'DFW'],
  ['DFW', 'HOU'],
  ['DFW', 'TXK'],
  ['TXK', 'LIT'],
  ['LIT', 'MEM'],
  ['HOU', 'BTR'],
  ['BTR', 'MSY'],
  ['MSY', 'MOB'],
  ['MOB', 'JAX'],
  ['MOB', 'BHM'],
  ['MEM', 'BNA'],
  ['MEM', 'BHM'],
  ['BHM', 'ATL'],
  ['BNA', 'ATL'],
  ['BNA', 'KNX'],
  ['BNA', 'LOU'],
  ['KNX', 'CLT'],
  ['ATL', 'CLT'],
  ['ATL', 'JAX'],
  ['CLT', 'RIC'],
  ['RIC', 'WAS'],
  ['WAS', 'PHL'],
  ['PHL', 'NYC'],
  ['NYC', 'BOS'],
  ['NYC', 'ALB'],
  ['ALB', 'BOS'],
  ['ALB', 'BUF'],
  ['BUF', 'CLE'],
  ['CLE', 'PIT'],
  ['CLE', 'DET'],
  ['CLE', 'CMH'],
  ['PIT', 'HAR'],
  ['HAR', 'PHL'],
  ['PIT', 'CMH'],
  ['CMH', 'IND'],
  ['IND', 'CHI'],
  ['IND', 'STL'],
  ['IND', 'LOU'],
  ['LOU', 'CMH'],
  ['STL', 'MKC'],
  ['STL', 'MEM'],
  ['STL', 'CHI'],
  ['CHI', 'MKE'],
  ['MKE', 'MSP'],
  ['CHI', 'DSM'],
  ['DSM', 'OMA'],
  ['DSM', 'MSP'],
  ['OMA', 'MKC'],
  ['DET', 'CHI'],
  ['MKC', 'DSM'],
];

const geometry = new Map<string, readonly LatLon[]>();

/**
 * The road polyline of the link from city `a` to city `b` (codes of CITIES), from one centre to the
 * other over the bundled roads; computed once per link and kept.
 */
export function roadGeometry(a: string, b: string): readonly LatLon[] {
  const key = `${a}-${b}`;
  let line = geometry.get(key);
  if (!line) {
    const from = CITIES[a]!;
    const to = CITIES[b]!;
    line = Object.freeze(highwayRoute({ lat: from.lat, lon: from.lon }, { lat: to.lat, lon: to.lon }));
    geometry.set(key, line);
  }
  return line;
}
