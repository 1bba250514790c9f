// Border crossings on a driver's log (issue 72, decision 0313): which ruleset is in force on each side,
// and the crossings of a truck's track. Pure functions: the service reads and writes the rows.
import type { RuleSegment, RulesetId } from '@fleet/hos';
import { indexedJurisdictions, jurisdictionAt } from '@fleet/geo/jurisdictions';
import { splitPair, type TrackFix } from '@fleet/geo/ifta';
import type { BorderCountry } from '@fleet/api-contract';
import { isCanadian } from './hos.repository.ts';
import type { CrossingFact } from './hos.types.ts';

/** The Canadian ruleset a US driver follows north of the border, and the US one of a Canadian driver. */
export const OTHER_SIDE_DEFAULT: Readonly<Record<BorderCountry, RulesetId>> = { CA: 'CA_SOUTH_CYCLE_1', US: 'US_PROPERTY_70_8' };

/** The country whose rules a ruleset is: Canada south of 60 or the US (federal or intrastate). */
export const countryOfRuleset = (r: RulesetId): BorderCountry => (isCanadian(r) ? 'CA' : 'US');

/** The ruleset a driver follows in a country: their own on their side, the default of the other side otherwise. */
export function rulesetIn(driverRuleset: RulesetId, country: BorderCountry): RulesetId {
  return countryOfRuleset(driverRuleset) === country ? driverRuleset : OTHER_SIDE_DEFAULT[country];
}

/**
 * The engine's rule segments of a driver's crossings (sorted by time): before the first crossing
 * the ruleset of the country it leaves, from each crossing the ruleset of the country it enters.
 */
export function ruleSegmentsOf(driverRuleset: RulesetId, crossings: readonly CrossingFact[]): { base: RulesetId; segments: RuleSegment[] } {
  if (crossings.length === 0) return { base: driverRuleset, segments: [] };
  const segments: RuleSegment[] = [];
  for (const c of crossings) {
    const last = segments[segments.length - 1];
    // Two crossings at one instant (a correction on top of a detection): the later row wins.
    if (last && last.from === c.atMs) segments.pop();
    segments.push({ from: c.atMs, ruleset: rulesetIn(driverRuleset, c.to) });
  }
  return { base: rulesetIn(driverRuleset, crossings[0]!.from), segments };
}

let countryByCode: Map<string, string> | null = null;
const countryOfCode = (code: string): string | undefined => {
  countryByCode ??= new Map(indexedJurisdictions().map((j) => [j.code, j.country]));
  return countryByCode.get(code);
};

export interface DetectedCrossing extends CrossingFact {
  lat: number;
  lon: number;
  vehicleId: string | null;
}

/**
 * The US-Canada crossings of a track (fixes sorted by time): where the country of consecutive
 * located fixes changes, the point and time the IFTA split puts on the boundary between them
 * (time by distance along the line). Fixes in no jurisdiction (the middle of a river or lake) are
 * skipped: the crossing is found between the located fixes around them.
 */
export function crossingsOfTrack(track: ReadonlyArray<TrackFix & { vehicleId: string | null }>): DetectedCrossing[] {
  const out: DetectedCrossing[] = [];
  let prev: (TrackFix & { vehicleId: string | null }) | null = null;
  let prevCountry: string | null = null;
  for (const fix of track) {
    const country = jurisdictionAt(fix.lat, fix.lon)?.country ?? null;
    if (country !== 'US' && country !== 'CA') continue;
    if (prev && prevCountry && prevCountry !== country) {
      const split = splitPair(prev, fix);
      const c = split.crossings.find((x) => countryOfCode(x.from) === prevCountry && countryOfCode(x.to) === country);
      out.push({
        atMs: c?.time ?? Math.round((prev.time + fix.time) / 2),
        from: prevCountry as BorderCountry,
        to: country,
        lat: c?.lat ?? (prev.lat + fix.lat) / 2,
        lon: c?.lon ?? (prev.lon + fix.lon) / 2,
        vehicleId: fix.vehicleId,
      });
    }
    prev = fix;
    prevCountry = country;
  }
  return out;
}
