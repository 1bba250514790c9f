import { useMemo } from 'react';
import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  clipSegments,
  clipViolations,
  dutyLine,
  formatHm,
  hourLabels,
  sparseHourLabels,
  pointsAttr,
  roundedTotals,
  rowTotals,
  ROWS,
  ticks,
  visibleEnd,
  xOf,
  type DutySegment,
  type GridScale,
  type GridViolation,
  type LogDay,
} from './graph-grid-geometry.ts';
import { clockTime, gridSummary, ROW_SHORT } from './graph-grid-text.ts';
import { useGridWords } from './graph-grid-words.ts';
import { GraphGridTable } from './graph-grid-table.tsx';
import { GraphGridLegend } from './graph-grid-legend.tsx';
import classes from './graph-grid.module.css';

export type { DutySegment, DutyStatus, GridViolation, LogDay, SpecialCondition } from './graph-grid-geometry.ts';

export interface GraphGridProps {
  /** The log day: its date, start instant and length (23 h or 25 h on daylight-saving days). */
  day: LogDay;
  /** Duty-status periods covering the day; parts outside it are clipped. */
  segments: readonly DutySegment[];
  /** Violation intervals, marked on the Driving row (default none). */
  violations?: readonly GridViolation[];
  /** Home-terminal IANA zone naming the hour labels and times; default: hours counted from the start. */
  timeZone?: string;
  /** On a live day, the present: the line stops here and the rest of the day stays blank. */
  now?: string | Date;
  /** Short row names and sparser hour labels; default: on when the grid is narrower than 600 px. */
  compact?: boolean;
  /** Instants marked across the grid with their words (border crossings and declarations, issue 72); outside the day: not drawn. */
  markers?: readonly GridMarker[];
}

/** An instant marked on the grid: a flagged line from top to bottom, its words as the title. */
export interface GridMarker {
  at: string;
  label: string;
}

/** Narrowest drawing (a 320 px phone less the page and card padding); a narrower container scrolls sideways. */
export const GRID_MIN_WIDTH = 280;
/** Width drawn before the container is measured (and in jsdom, which measures nothing). */
const DEFAULT_WIDTH = 760;
const COMPACT_BELOW = 600;
const HOUR = 3_600_000;

interface Layout {
  width: number;
  height: number;
  scale: GridScale;
  labelEvery: number;
  compact: boolean;
}

function layoutFor(width: number, compact: boolean, lengthMs: number): Layout {
  const labelW = compact ? 30 : 100;
  const totalW = compact ? 46 : 60;
  const top = compact ? 18 : 22;
  const rowHeight = compact ? 26 : 32;
  const bottom = compact ? 22 : 26;
  const plot = width - labelW - totalW;
  const perHour = plot / (lengthMs / HOUR);
  const labelEvery = perHour >= 22 ? 1 : perHour >= 13 ? 2 : 3;
  return { width, height: top + 4 * rowHeight + bottom, scale: { lengthMs, left: labelW, width: plot, top, rowHeight }, labelEvery, compact };
}

/**
 * The 24-hour graph grid of a record of duty status (hos-rules.md 2.5): rows Off duty, Sleeper berth,
 * Driving, On duty; hour columns with quarter-hour ticks; the duty line; PC and YM dashed; totals per
 * row that add up to the day's length; violations shaded on the Driving row. Pure: data in, SVG out.
 */
export function GraphGrid({ day, segments, violations = [], timeZone, now, compact, markers = [] }: GraphGridProps) {
  const { ref, width: measured } = useElementSize<HTMLDivElement>();
  const width = Math.max(GRID_MIN_WIDTH, Math.floor(measured) || DEFAULT_WIDTH);
  const L = layoutFor(width, compact ?? width < COMPACT_BELOW, day.lengthMs);
  const { scale } = L;
  const w = useGridWords();
  const clock = (offset: number) => clockTime(offset, day, timeZone, w.clockLocale);

  const spans = useMemo(() => clipSegments(day, segments, now), [day, segments, now]);
  const marks = useMemo(() => clipViolations(day, violations), [day, violations]);
  const totals = useMemo(() => roundedTotals(rowTotals(spans)), [spans]);
  const runs = dutyLine(spans, scale);
  const live = now !== undefined && visibleEnd(day, now) < day.lengthMs;
  const nowX = live ? xOf(visibleEnd(day, now), scale) : null;
  const summary = gridSummary({
    day,
    totals,
    live,
    nowLabel: live ? clock(visibleEnd(day, now)) : undefined,
    violations: marks.length,
    words: w,
  });

  const right = scale.left + scale.width;
  const bottom = scale.top + 4 * scale.rowHeight;
  const rowTop = (i: number) => scale.top + i * scale.rowHeight;
  const dRow = ROWS.indexOf('D');
  const fontSize = L.compact ? 10 : 11;
  const hasPC = spans.some((s) => s.special === 'PC');
  const hasYM = spans.some((s) => s.special === 'YM');

  return (
    // Until its box is measured the grid is drawn at DEFAULT_WIDTH, wider than a phone: the box does
    // not scroll then (a scroller nobody can reach by keyboard, for a frame). Once measured, it
    // scrolls only on a screen narrower than GRID_MIN_WIDTH, and can then be focused to scroll.
    <Box
      ref={ref}
      className={classes.root}
      data-compact={L.compact || undefined}
      data-unmeasured={measured > 0 ? undefined : true}
      tabIndex={measured > 0 && width > Math.floor(measured) ? 0 : undefined}
    >
      <svg className={classes.svg} role="img" aria-label={summary} width={L.width} height={L.height} viewBox={`0 0 ${L.width} ${L.height}`} fontSize={fontSize}>
        <g shapeRendering="crispEdges">
          {ROWS.map((r, i) => (
            <rect key={r} className={i % 2 ? classes.bandAlt : classes.band} x={scale.left} y={rowTop(i)} width={scale.width} height={scale.rowHeight} />
          ))}
          {live && nowX !== null && <rect className={classes.future} x={nowX} y={scale.top} width={right - nowX} height={4 * scale.rowHeight} />}
          {marks.map((v) => (
            <rect
              key={`${v.from}-${v.rule}`}
              className={classes.violation}
              x={xOf(v.from, scale)}
              y={rowTop(dRow)}
              width={Math.max(1, xOf(v.to, scale) - xOf(v.from, scale))}
              height={scale.rowHeight}
            >
              <title>{`${w.rule(v.rule)} (${w.rule(v.severity).toLowerCase()}), ${clock(v.from)} – ${clock(v.to)}`}</title>
            </rect>
          ))}
          {ticks(day.lengthMs).map((t) => {
            const x = Math.round(xOf(t.offset, scale));
            if (t.kind === 'hour') {
              return <line key={t.offset} className={classes.hourLine} x1={x} x2={x} y1={scale.top} y2={bottom} />;
            }
            const len = scale.rowHeight * (t.kind === 'half' ? 0.5 : 0.28);
            return ROWS.map((r, i) => <line key={`${t.offset}-${r}`} className={classes.tick} x1={x} x2={x} y1={rowTop(i)} y2={rowTop(i) + len} />);
          })}
          {ROWS.slice(1).map((r, i) => (
            <line key={r} className={classes.rowLine} x1={scale.left} x2={right} y1={rowTop(i + 1)} y2={rowTop(i + 1)} />
          ))}
          <rect className={classes.frame} x={scale.left} y={scale.top} width={scale.width} height={4 * scale.rowHeight} />
          {marks.map((v) => (
            <line
              key={`edge-${v.from}-${v.rule}`}
              className={classes.violationEdge}
              x1={xOf(v.from, scale)}
              x2={xOf(v.to, scale)}
              y1={rowTop(dRow + 1) - 1.5}
              y2={rowTop(dRow + 1) - 1.5}
            />
          ))}
        </g>

        {sparseHourLabels(hourLabels(day, timeZone), L.labelEvery).map((h) => (
          <text
            key={h.offset}
            className={h.hour % 12 === 0 ? classes.hourLabelMajor : classes.hourLabel}
            x={xOf(h.offset, scale)}
            y={scale.top - 6}
            textAnchor="middle"
          >
            {h.label === 'Mid' ? w.mid : h.label === 'Noon' ? w.noon : h.label}
          </text>
        ))}

        {ROWS.map((r, i) => (
          <text key={r} className={classes.rowLabel} x={scale.left - 8} y={rowTop(i) + scale.rowHeight / 2} dominantBaseline="central" textAnchor="end">
            {L.compact ? ROW_SHORT[r] : w.rows[r]}
          </text>
        ))}

        <text className={classes.totalHead} x={L.width - 4} y={scale.top - 6} textAnchor="end">
          {w.total}
        </text>
        {ROWS.map((r, i) => (
          <text key={r} className={classes.total} x={L.width - 4} y={rowTop(i) + scale.rowHeight / 2} dominantBaseline="central" textAnchor="end">
            {formatHm(totals[r])}
          </text>
        ))}
        <line className={classes.sumLine} x1={right + 10} x2={L.width} y1={bottom + 0.5} y2={bottom + 0.5} shapeRendering="crispEdges" />
        <text className={classes.sum} x={L.width - 4} y={bottom + (L.compact ? 15 : 17)} textAnchor="end">
          {formatHm(ROWS.reduce((a, r) => a + totals[r], 0))}
        </text>

        {runs.map((run, i) => (
          <polyline
            key={i}
            className={run.style === 'solid' ? classes.line : run.style === 'PC' ? classes.linePC : classes.lineYM}
            points={pointsAttr(run.points)}
          />
        ))}
        {spans.map((s) => {
          if (!s.special) return null;
          // Under the line, centred on the period (hos-rules.md 2.5: the abbreviation with the line style).
          const x = (xOf(s.from, scale) + xOf(s.to, scale)) / 2;
          const row = ROWS.indexOf(s.status);
          return (
            <text key={`sp-${s.from}`} className={classes.specialLabel} x={x} y={rowTop(row) + scale.rowHeight - 3} textAnchor="middle">
              {s.special}
            </text>
          );
        })}
        {markers.map((m, i) => {
          const offset = Date.parse(m.at) - Date.parse(day.start);
          if (!(offset >= 0 && offset <= day.lengthMs)) return null;
          const x = xOf(offset, scale);
          return (
            <g key={`marker-${m.at}-${i}`} className={classes.marker} data-testid="grid-marker">
              <title>{m.label}</title>
              <line x1={x} x2={x} y1={scale.top - 2} y2={bottom + 2} />
              <path d={`M${x} ${bottom + 2} l0 8 l8 -3 l-8 -3`} />
            </g>
          );
        })}
        {nowX !== null && (
          <line className={classes.now} x1={nowX} x2={nowX} y1={scale.top - 2} y2={bottom + 2}>
            <title>{`${w.now}, ${clock(visibleEnd(day, now))}`}</title>
          </line>
        )}
      </svg>
      <GraphGridLegend pc={hasPC} ym={hasYM} violations={marks.length > 0} live={live} words={w} />
      <GraphGridTable day={day} spans={spans} violations={marks} timeZone={timeZone} words={w} />
    </Box>
  );
}
