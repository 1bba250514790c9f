import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithTheme } from '../../../test/render.tsx';
import { GraphGrid } from './graph-grid.tsx';
import { logDay, type DutySegment } from './graph-grid-geometry.ts';

const tz = 'America/Chicago';
const day = logDay('2026-06-10', tz);
const at = (h: number, m = 0) => new Date(Date.parse(day.start) + (h * 60 + m) * 60_000).toISOString();
const segments: DutySegment[] = [
  { status: 'OFF', start: at(0), end: at(6) },
  { status: 'ON', special: 'YM', start: at(6), end: at(6, 15) },
  { status: 'D', start: at(6, 15), end: at(11, 45) },
  { status: 'OFF', start: at(11, 45), end: at(12, 15) },
  { status: 'D', start: at(12, 15), end: at(17, 45) },
  { status: 'SB', start: at(17, 45), end: at(22) },
  { status: 'OFF', special: 'PC', start: at(22), end: at(24) },
];

function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((tr) =>
      within(tr)
        .getAllByRole('cell')
        .map((td) => td.textContent ?? ''),
    );
}

describe('GraphGrid', () => {
  it('is no scroller and no tab stop until its box is measured (drawn meanwhile wider than a phone)', () => {
    renderWithTheme(<GraphGrid day={day} segments={segments} timeZone={tz} />);
    const box = screen.getByRole('img').parentElement!;
    expect(box).toHaveAttribute('data-unmeasured');
    expect(box).not.toHaveAttribute('tabindex');
  });

  it('summarises the row totals in the image label, adding up to the day', () => {
    renderWithTheme(<GraphGrid day={day} segments={segments} timeZone={tz} />);
    const img = screen.getByRole('img');
    expect(img).toHaveAccessibleName('Record of duty status, 2026-06-10: Off duty 8:30, Sleeper berth 4:15, Driving 11:00, On duty 0:15, total 24:00.');
    expect(img.tagName.toLowerCase()).toBe('svg');
  });

  it('lists every segment in a hidden table with start, end, status and duration', () => {
    renderWithTheme(<GraphGrid day={day} segments={segments} timeZone={tz} />);
    const table = screen.getByRole('table', { name: 'Duty statuses on 2026-06-10' });
    expect(rowsOf(table)).toEqual([
      ['12:00 AM', '6:00 AM', 'Off duty', '6:00'],
      ['6:00 AM', '6:15 AM', 'On duty, yard moves (YM)', '0:15'],
      ['6:15 AM', '11:45 AM', 'Driving', '5:30'],
      ['11:45 AM', '12:15 PM', 'Off duty', '0:30'],
      ['12:15 PM', '5:45 PM', 'Driving', '5:30'],
      ['5:45 PM', '10:00 PM', 'Sleeper berth', '4:15'],
      ['10:00 PM', '12:00 AM', 'Off duty, personal conveyance (PC)', '2:00'],
    ]);
  });

  it('prints the four totals and their sum at the right, and PC/YM in their own dashes', () => {
    const { container } = renderWithTheme(<GraphGrid day={day} segments={segments} timeZone={tz} />);
    const texts = [...container.querySelectorAll('svg[role=img] text')].map((t) => t.textContent);
    expect(texts).toEqual(
      expect.arrayContaining(['8:30', '4:15', '11:00', '0:15', '24:00', 'PC', 'YM', 'Off duty', 'Sleeper berth', 'Driving', 'On duty', 'Mid', 'Noon']),
    );
    const lines = container.querySelectorAll('svg[role=img] polyline');
    // solid to 6:00, YM, solid through the day to 22:00, PC.
    expect(lines).toHaveLength(4);
    expect(screen.getByText(/PC: personal conveyance/)).toBeInTheDocument();
    expect(screen.getByText(/YM: yard moves/)).toBeInTheDocument();
  });

  it('marks violations on the Driving row with a title and lists them for screen readers', () => {
    const violations = [{ start: at(16, 45), end: at(17, 45), rule: 'DRIVING_LIMIT', severity: 'VIOLATION' }];
    const { container } = renderWithTheme(<GraphGrid day={day} segments={segments} violations={violations} timeZone={tz} />);
    expect(screen.getByRole('img')).toHaveAccessibleName(expect.stringMatching(/total 24:00\. 1 violation\.$/));
    const title = container.querySelector('svg[role=img] rect title');
    expect(title?.textContent).toBe('Driving limit (violation), 4:45 PM – 5:45 PM');
    const table = screen.getByRole('table', { name: 'Violations on 2026-06-10' });
    expect(rowsOf(table)).toEqual([['4:45 PM', '5:45 PM', 'Driving limit', 'Violation']]);
  });

  it('stops the line at now on a live day and totals the time so far', () => {
    renderWithTheme(<GraphGrid day={day} segments={segments} timeZone={tz} now={at(9, 30)} />);
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'Record of duty status, 2026-06-10: Off duty 6:00, Sleeper berth 0:00, Driving 3:15, On duty 0:15, total so far 9:30 at 9:30 AM.',
    );
    const table = screen.getByRole('table', { name: 'Duty statuses on 2026-06-10' });
    expect(rowsOf(table).at(-1)).toEqual(['6:15 AM', '9:30 AM', 'Driving', '3:15']);
    expect(rowsOf(table)).toHaveLength(3);
  });

  it('names a 25-hour day and its totals add up to 25:00', () => {
    const fall = logDay('2026-11-01', tz);
    const fallSegments: DutySegment[] = [
      { status: 'OFF', start: fall.start, end: '2026-11-01T15:00:00Z' },
      { status: 'D', start: '2026-11-01T15:00:00Z', end: '2026-11-02T06:00:00Z' },
    ];
    renderWithTheme(<GraphGrid day={fall} segments={fallSegments} timeZone={tz} />);
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'Record of duty status, 2026-11-01 (25-hour day): Off duty 10:00, Sleeper berth 0:00, Driving 15:00, On duty 0:00, total 25:00.',
    );
  });
});
