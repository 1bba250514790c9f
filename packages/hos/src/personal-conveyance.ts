import { buildDayGrid, checkZone, dayIndex, formatDay, parseDayStart } from './days.ts';
import { HosInputError } from './errors.ts';
import { parseInstant } from './instant.ts';
import type { DutyPeriodInput, HosOptions } from './types.ts';

/**
 * SOR/2005-313 s. 2(1)(e): the Regulations do not apply to "a commercial vehicle when driven for
 * personal use, if ... (iii) the distance travelled does not exceed 75 km in a day" (and it is
 * unloaded, its trailers unhitched, the odometer recorded at the beginning and end of the personal
 * use); s. 2(2) excludes use "in the course of business as a motor carrier". Text read on Justice
 * Laws (section 2, versions of 2007 and 2009).
 */
export const CANADA_PERSONAL_USE_KM_PER_DAY = 75;

/** A personal-conveyance period's distance as the log's odometers give it. */
export interface PersonalConveyanceDistance {
  /** The PC period's start and end (ISO text or epoch ms), as the log's OFF/PC period. */
  start: string | number;
  end: string | number;
  km: number;
}

/** One log day's personal conveyance: its distance and how much of it is beyond the day's limit. */
export interface PersonalConveyanceDay {
  /** The log day, YYYY-MM-DD in the home-terminal zone (as `DailyTotal.date`). */
  day: string;
  km: number;
  /** km driven beyond CANADA_PERSONAL_USE_KM_PER_DAY that day (0 when within). */
  overKm: number;
}

const ms = (v: string | number): number => (typeof v === 'number' ? v : parseInstant(String(v)));
const isCanadian = (ruleset: string): boolean => ruleset.startsWith('CA_SOUTH') || ruleset.startsWith('CA_NORTH');

/**
 * Canada's personal-use limit on a log (issue 72, decision 0319): each log day's PC distance, and,
 * on the Canadian rulesets, the periods with the PC driving beyond 75 km in a day turned into
 * driving (the PC period cut where the day's 75th km was driven, at the period's even speed; a PC
 * period across the day's end counts its distance to each day by time). Pure: the periods given are
 * not changed. Other rulesets: the periods come back as they are (the US has no distance limit).
 * A distance must match a PC period of the log (same start), or it is a HosInputError.
 */
export function limitPersonalConveyance(
  periods: readonly DutyPeriodInput[],
  distances: readonly PersonalConveyanceDistance[],
  options: Pick<HosOptions, 'ruleset' | 'timeZone' | 'cycleDayStart'>,
): { periods: DutyPeriodInput[]; days: PersonalConveyanceDay[] } {
  checkZone(options.timeZone);
  const dayStartMin = parseDayStart(options.cycleDayStart);
  const byStart = new Map<number, number>();
  for (let i = 0; i < distances.length; i++) {
    const d = distances[i]!;
    const s = ms(d.start);
    if (!Number.isFinite(s)) throw new HosInputError('personal conveyance start is not an instant', null, `distances[${i}].start`);
    if (!(typeof d.km === 'number' && d.km >= 0 && Number.isFinite(d.km))) throw new HosInputError('km must be a number ≥ 0', null, `distances[${i}].km`);
    byStart.set(s, d.km);
  }
  const pcs: Array<{ i: number; s: number; e: number; km: number }> = [];
  periods.forEach((p, i) => {
    if (p.special !== 'PC' || p.status !== 'OFF') return;
    const s = ms(p.start);
    const km = byStart.get(s);
    if (km === undefined) return;
    byStart.delete(s);
    pcs.push({ i, s, e: ms(p.end), km });
  });
  if (byStart.size > 0) throw new HosInputError('a personal conveyance distance matches no PC period of the log', null, 'distances');
  if (pcs.length === 0) return { periods: [...periods], days: [] };
  const grid = buildDayGrid(options.timeZone, dayStartMin, pcs[0]!.s, pcs[pcs.length - 1]!.e);
  const limit = isCanadian(options.ruleset) ? CANADA_PERSONAL_USE_KM_PER_DAY : Infinity;
  const used = new Map<number, number>();
  const over = new Map<number, number>();
  // Instants from which a PC period is driving, by period index.
  const drivingFrom = new Map<number, Array<{ from: number; to: number }>>();
  for (const pc of pcs) {
    const speed = pc.e > pc.s ? pc.km / (pc.e - pc.s) : 0;
    let t = pc.s;
    while (t < pc.e) {
      const d = dayIndex(grid, t);
      const dayEnd = d + 1 < grid.starts.length ? Math.min(grid.starts[d + 1]!, pc.e) : pc.e;
      const km = speed * (dayEnd - t);
      const before = used.get(d) ?? 0;
      used.set(d, before + km);
      if (before + km > limit) {
        const from = before >= limit ? t : t + (limit - before) / speed;
        over.set(d, (over.get(d) ?? 0) + before + km - Math.max(before, limit));
        const list = drivingFrom.get(pc.i) ?? [];
        list.push({ from: Math.round(from), to: dayEnd });
        drivingFrom.set(pc.i, list);
      }
      t = dayEnd;
    }
  }
  const days = [...used.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([d, km]) => ({ day: formatDay(grid.firstDay + d), km: round1(km), overKm: round1(over.get(d) ?? 0) }));
  if (drivingFrom.size === 0) return { periods: [...periods], days };
  const out: DutyPeriodInput[] = [];
  periods.forEach((p, i) => {
    const cuts = drivingFrom.get(i);
    if (!cuts) {
      out.push(p);
      return;
    }
    let t = ms(p.start);
    const end = ms(p.end);
    for (const c of cuts) {
      if (c.from > t) out.push({ status: 'OFF', special: 'PC', start: t, end: c.from });
      out.push({ status: 'D', start: c.from, end: c.to });
      t = c.to;
    }
    if (t < end) out.push({ status: 'OFF', special: 'PC', start: t, end });
  });
  return { periods: out, days };
}

const round1 = (km: number): number => Math.round(km * 10) / 10;
