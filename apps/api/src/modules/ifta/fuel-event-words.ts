import { KM_PER_MILE, UNIT_LABELS, roundTo, volumeFromL, type UnitSystem } from '@fleet/api-contract';
import { describeLocation } from '@fleet/geo/places';

// Fuel events in words, in the organization's units (issue 68, decision 0276): the list's
// description, the drop's notice, the place. Pure.

/** "60.2 gal" or "227.9 L". */
export function volumeText(litres: number, units: UnitSystem): string {
  return `${roundTo(volumeFromL(litres, units), 1).toLocaleString('en-US')} ${UNIT_LABELS[units].volume}`;
}

/** "72 %" (whole percents: a sensor reads no finer). */
export const pctText = (pct: number): string => `${Math.round(pct)} %`;

/** Where, from the nearest town: "3 mi NE of Joliet, IL" (km for a metric organization); null where the bundled places say nothing. */
export function placeText(lat: number, lon: number, units: UnitSystem): string | null {
  try {
    const d = describeLocation(lat, lon);
    if (units === 'IMPERIAL' || d.direction === null) return d.text;
    return `${Math.round(d.distanceMi * KM_PER_MILE)} km ${d.direction} of ${d.place}`;
  } catch {
    return null;
  }
}

/** Minutes between two instants, in words: "15 min", "2 h 5 min". */
export function durationText(fromMs: number, toMs: number): string {
  const min = Math.max(0, Math.round((toMs - fromMs) / 60_000));
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

export interface EventWordsInput {
  type: 'REFUEL' | 'DROP';
  startedAt: number;
  endedAt: number;
  quantityL: number;
  levelBeforePct: number;
  levelAfterPct: number;
  ignitionOff: boolean;
}

/** The event in a sentence: "The fuel level fell from 72 % to 52 % (60 gal) in 15 min while the truck stood with the ignition off." */
export function eventDescription(e: EventWordsInput, units: UnitSystem): string {
  const amount = volumeText(e.quantityL, units);
  const levels = `from ${pctText(e.levelBeforePct)} to ${pctText(e.levelAfterPct)}`;
  if (e.type === 'REFUEL') return `The fuel level rose ${levels} (${amount} in) while the truck stood.`;
  return `The fuel level fell ${levels} (${amount} gone) in ${durationText(e.startedAt, e.endedAt)} while the truck stood${e.ignitionOff ? ' with the ignition off' : ''}.`;
}
