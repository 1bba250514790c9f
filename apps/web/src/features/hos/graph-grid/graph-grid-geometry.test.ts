// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  clipSegments,
  dutyLine,
  formatHm,
  hourLabels,
  logDay,
  roundedTotals,
  rowTotals,
  ROWS,
  sparseHourLabels,
  ticks,
  visibleEnd,
  xOf,
  xOfInstant,
  yOf,
  zonedInstant,
  type DutySegment,
  type GridScale,
  type LogDay,
  type RowTotals,
} from './graph-grid-geometry.ts';

const H = 3_600_000;
const MIN = 60_000;
const day: LogDay = { date: '2026-06-10', start: '2026-06-10T05:00:00.000Z', lengthMs: 24 * H };
const scale: GridScale = { lengthMs: 24 * H, left: 100, width: 480, top: 20, rowHeight: 30 };
const at = (hours: number) => new Date(Date.parse(day.start) + hours * H).toISOString();
const seg = (status: DutySegment['status'], from: number, to: number, special?: DutySegment['special']): DutySegment =>
  special ? { status, special, start: at(from), end: at(to) } : { status, start: at(from), end: at(to) };
const sum = (t: RowTotals) => t.OFF + t.SB + t.D + t.ON;

/** Deterministic pseudo-random numbers (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('xOf and yOf', () => {
  it('maps the start, noon and end of a 24-hour day onto the plot and clamps outside it', () => {
    expect(xOf(0, scale)).toBe(100);
    expect(xOf(12 * H, scale)).toBe(340);
    expect(xOf(24 * H, scale)).toBe(580);
    expect(xOf(-H, scale)).toBe(100);
    expect(xOf(30 * H, scale)).toBe(580);
    expect(xOfInstant('2026-06-10T11:00:00Z', day, scale)).toBe(100 + 6 * 20);
  });

  it('puts the rows Off duty, Sleeper berth, Driving, On duty top to bottom', () => {
    expect(ROWS).toEqual(['OFF', 'SB', 'D', 'ON']);
    expect(ROWS.map((r) => yOf(r, scale))).toEqual([35, 65, 95, 125]);
  });
});

describe('clipSegments', () => {
  it('clips segments to the day and drops those outside it, sorted by start', () => {
    const spans = clipSegments(day, [seg('D', 20, 26), seg('OFF', -5, 6), seg('SB', 30, 31), seg('ON', 6, 20)]);
    expect(spans).toEqual([
      { status: 'OFF', from: 0, to: 6 * H },
      { status: 'ON', from: 6 * H, to: 20 * H },
      { status: 'D', from: 20 * H, to: 24 * H },
    ]);
  });

  it('stops a live day at now: the segment running at now ends there and later ones vanish', () => {
    const now = at(9.5);
    const spans = clipSegments(day, [seg('OFF', 0, 6), seg('D', 6, 24)], now);
    expect(spans).toEqual([
      { status: 'OFF', from: 0, to: 6 * H },
      { status: 'D', from: 6 * H, to: 9.5 * H },
    ]);
    expect(visibleEnd(day, now)).toBe(9.5 * H);
    expect(visibleEnd(day, at(-2))).toBe(0);
    expect(visibleEnd(day, at(30))).toBe(24 * H);
  });

  it('keeps the special condition and drops unreadable instants', () => {
    const spans = clipSegments(day, [seg('OFF', 0, 2, 'PC'), { status: 'ON', start: 'nonsense', end: at(3) }]);
    expect(spans).toEqual([{ status: 'OFF', special: 'PC', from: 0, to: 2 * H }]);
  });
});

describe('dutyLine', () => {
  it('draws one polyline with a vertical connector at each change of row', () => {
    const spans = clipSegments(day, [seg('OFF', 0, 6), seg('D', 6, 11), seg('ON', 11, 12), seg('OFF', 12, 24)]);
    const runs = dutyLine(spans, scale);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.style).toBe('solid');
    expect(runs[0]!.points).toEqual([
      [100, 35],
      [220, 35],
      [220, 95],
      [320, 95],
      [320, 125],
      [340, 125],
      [340, 35],
      [580, 35],
    ]);
  });

  it('joins two segments of one row into one straight stroke', () => {
    const runs = dutyLine(clipSegments(day, [seg('D', 0, 3), seg('D', 3, 5)]), scale);
    expect(runs).toEqual([
      {
        style: 'solid',
        points: [
          [100, 95],
          [200, 95],
        ],
      },
    ]);
  });

  it('gives PC and YM their own runs in the Off and On rows, with solid connectors', () => {
    const spans = clipSegments(day, [seg('OFF', 0, 6), seg('OFF', 6, 7, 'PC'), seg('ON', 7, 8, 'YM'), seg('ON', 8, 24)]);
    const runs = dutyLine(spans, scale);
    expect(runs.map((r) => r.style)).toEqual(['solid', 'PC', 'solid', 'YM', 'solid']);
    expect(runs[1]!.points).toEqual([
      [220, 35],
      [240, 35],
    ]);
    expect(runs[2]!.points).toEqual([
      [240, 35],
      [240, 125],
    ]);
    expect(runs[3]!.points).toEqual([
      [240, 125],
      [260, 125],
    ]);
    expect(runs[4]!.points).toEqual([
      [260, 125],
      [580, 125],
    ]);
  });

  it('breaks the line at a gap between segments', () => {
    const runs = dutyLine(clipSegments(day, [seg('OFF', 0, 2), seg('D', 3, 4)]), scale);
    expect(runs).toHaveLength(2);
    expect(runs[1]!.points[0]).toEqual([160, 95]);
  });
});

describe('roundedTotals', () => {
  it('rounds by largest remainder so the four totals add up to the day', () => {
    // 40 s over in three rows: rounding each row alone would show 24:01.
    const t: RowTotals = { OFF: 6 * H + 40_000, SB: 6 * H + 40_000, D: 6 * H + 40_000, ON: 6 * H - 120_000 };
    const r = roundedTotals(t);
    expect(sum(r)).toBe(24 * 60);
    expect(r).toEqual({ OFF: 361, SB: 361, D: 360, ON: 358 });
  });

  it('never gives a minute to an empty row', () => {
    const r = roundedTotals({ OFF: 24 * H - 36_000, SB: 0, D: 36_000, ON: 0 });
    expect(r).toEqual({ OFF: 1439, SB: 0, D: 1, ON: 0 });
    expect(roundedTotals({ OFF: 0, SB: 0, D: 0, ON: 0 })).toEqual({ OFF: 0, SB: 0, D: 0, ON: 0 });
  });

  it('adds up to the day length over random segmentations of 23, 24 and 25-hour days', () => {
    const random = rng(20260308);
    for (let trial = 0; trial < 500; trial++) {
      const lengthMs = [23, 24, 25][trial % 3]! * H;
      const d: LogDay = { date: '2026-03-08', start: day.start, lengthMs };
      const cuts = Array.from({ length: 1 + Math.floor(random() * 30) }, () => Math.floor(random() * lengthMs)).sort((a, b) => a - b);
      const bounds = [0, ...cuts, lengthMs];
      const segments: DutySegment[] = [];
      for (let i = 0; i + 1 < bounds.length; i++) {
        const start = new Date(Date.parse(d.start) + bounds[i]!).toISOString();
        const end = new Date(Date.parse(d.start) + bounds[i + 1]!).toISOString();
        segments.push({ status: ROWS[Math.floor(random() * 4)]!, start, end });
      }
      const exact = rowTotals(clipSegments(d, segments));
      expect(sum(exact)).toBe(lengthMs);
      const r = roundedTotals(exact);
      expect(sum(r)).toBe(lengthMs / MIN);
      for (const row of ROWS) expect(Math.abs(r[row] - exact[row] / MIN)).toBeLessThan(1);
    }
  });

  it('sums a live day to the time elapsed so far', () => {
    const spans = clipSegments(day, [seg('OFF', 0, 6), seg('D', 6, 24)], at(9.25));
    const r = roundedTotals(rowTotals(spans));
    expect(r).toEqual({ OFF: 360, SB: 0, D: 195, ON: 0 });
    expect(formatHm(sum(r))).toBe('9:15');
  });
});

describe('formatHm', () => {
  it('writes minutes as h:mm', () => {
    expect(formatHm(0)).toBe('0:00');
    expect(formatHm(615)).toBe('10:15');
    expect(formatHm(1440)).toBe('24:00');
    expect(formatHm(1500)).toBe('25:00');
  });
});

describe('ticks and hour labels', () => {
  it('marks every quarter hour, half hours taller, hours as lines', () => {
    const t = ticks(24 * H);
    expect(t).toHaveLength(97);
    expect(t.slice(0, 5).map((x) => x.kind)).toEqual(['hour', 'quarter', 'half', 'quarter', 'hour']);
    expect(ticks(25 * H)).toHaveLength(101);
  });

  it('labels a plain day Mid, 1 … 11, Noon, 1 … 11, Mid', () => {
    const labels = hourLabels(day, 'America/Chicago').map((l) => l.label);
    expect(labels).toEqual(['Mid', ...'1 2 3 4 5 6 7 8 9 10 11'.split(' '), 'Noon', ...'1 2 3 4 5 6 7 8 9 10 11'.split(' '), 'Mid']);
    expect(hourLabels(day).map((l) => l.label)).toEqual(labels);
  });

  it('skips 2 on the spring-forward day and repeats 1 on the fall-back day', () => {
    const spring = logDay('2026-03-08', 'America/Chicago');
    const springLabels = hourLabels(spring, 'America/Chicago').map((l) => l.label);
    expect(springLabels).toHaveLength(24);
    expect(springLabels.slice(0, 4)).toEqual(['Mid', '1', '3', '4']);
    expect(springLabels.at(-1)).toBe('Mid');
    const fall = logDay('2026-11-01', 'America/Chicago');
    const fallLabels = hourLabels(fall, 'America/Chicago').map((l) => l.label);
    expect(fallLabels).toHaveLength(26);
    expect(fallLabels.slice(0, 4)).toEqual(['Mid', '1', '1', '2']);
  });
});

describe('sparseHourLabels', () => {
  it('keeps clock hours that are multiples of the step, once each, on DST days too', () => {
    const fall = hourLabels(logDay('2026-11-01', 'America/Chicago'), 'America/Chicago');
    expect(sparseHourLabels(fall, 3).map((l) => l.label)).toEqual(['Mid', '3', '6', '9', 'Noon', '3', '6', '9', 'Mid']);
    expect(sparseHourLabels(fall, 1)).toHaveLength(26);
    const spring = hourLabels(logDay('2026-03-08', 'America/Chicago'), 'America/Chicago');
    expect(sparseHourLabels(spring, 2).map((l) => l.label)).toEqual(['Mid', '4', '6', '8', '10', 'Noon', '2', '4', '6', '8', '10', 'Mid']);
  });
});

describe('logDay', () => {
  it('is 24 hours on an ordinary day, starting at local midnight', () => {
    expect(logDay('2026-06-10', 'America/Chicago')).toEqual({ date: '2026-06-10', start: '2026-06-10T05:00:00.000Z', lengthMs: 24 * H });
  });

  it('is 23 hours on the spring-forward day and 25 on the fall-back day', () => {
    expect(logDay('2026-03-08', 'America/New_York')).toEqual({ date: '2026-03-08', start: '2026-03-08T05:00:00.000Z', lengthMs: 23 * H });
    expect(logDay('2026-11-01', 'America/New_York')).toEqual({ date: '2026-11-01', start: '2026-11-01T04:00:00.000Z', lengthMs: 25 * H });
    expect(logDay('2026-11-01', 'UTC').lengthMs).toBe(24 * H);
  });

  it('starts at the carrier start time and reads a skipped wall time as after the jump', () => {
    expect(logDay('2026-06-10', 'America/Denver', 6 * 60).start).toBe('2026-06-10T12:00:00.000Z');
    expect(new Date(zonedInstant('2026-03-08', 150, 'America/New_York')).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(new Date(zonedInstant('2026-11-01', 90, 'America/New_York')).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('lays a 25-hour day out with the fall-back hour drawn once per elapsed hour', () => {
    const fall = logDay('2026-11-01', 'America/Chicago');
    const segments: DutySegment[] = [
      { status: 'OFF', start: fall.start, end: '2026-11-01T13:00:00Z' },
      { status: 'D', start: '2026-11-01T13:00:00Z', end: '2026-11-02T06:00:00Z' },
    ];
    const totals = roundedTotals(rowTotals(clipSegments(fall, segments)));
    expect(totals).toEqual({ OFF: 8 * 60, SB: 0, D: 17 * 60, ON: 0 });
    expect(formatHm(sum(totals))).toBe('25:00');
    const s: GridScale = { ...scale, lengthMs: fall.lengthMs, width: 500 };
    expect(xOfInstant('2026-11-01T13:00:00Z', fall, s)).toBe(100 + 8 * 20);
  });
});
