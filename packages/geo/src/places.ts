import { PLACES_DATA, PLACES_SOURCE } from './places-data.ts';

/** A named populated place that ELD location descriptions measure from. */
export interface Place {
  name: string;
  /** US state or Canadian province/territory postal code: IL, ON, YT… */
  code: string;
  lat: number;
  lon: number;
  population: number;
}

export { PLACES_SOURCE };

/** Parses the `name|code|lat|lon|population` lines of the generated data file. */
export function parsePlaces(data: string): Place[] {
  const places: Place[] = [];
  for (const line of data.split('\n')) {
    if (!line) continue;
    const [name, code, lat, lon, population] = line.split('|');
    if (name === undefined || code === undefined || lat === undefined || lon === undefined || population === undefined) {
      throw new Error(`bad place line: ${line}`);
    }
    places.push({ name, code, lat: Number(lat), lon: Number(lon), population: Number(population) });
  }
  return places;
}

let loaded: readonly Place[] | null = null;

/** The bundled US and Canadian places (population ≥ 5,000), parsed on first use and kept. */
export function bundledPlaces(): readonly Place[] {
  loaded ??= Object.freeze(parsePlaces(PLACES_DATA));
  return loaded;
}
