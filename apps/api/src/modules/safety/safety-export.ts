import {
  SAFETY_BEHAVIOURS,
  SAFETY_EVENT_TYPE_LABELS,
  SAFETY_SEVERITY_LABELS,
  SAFETY_STATUS_LABELS,
  SPEEDING_BAND_LABELS,
  UNIT_LABELS,
  speedFromKmh,
  type SafetyGroupBy,
} from '@fleet/api-contract';
import type { ReadScope } from '../auth/index.ts';
import { timeIn } from '../maintenance/index.ts';
import { reportContext, sheetCsv, sheetPdf, type ExportFile, type Sheet } from '../reports/index.ts';
import { computeScores, listSafetyEvents } from './safety.service.ts';

// Safety events and scores as CSV and PDF (issue 47), drawn like the other reports: in the
// organization's units, times in the reader's zone with the zone named.

const MAX_ROWS = 10_000;
const d1 = (v: number | null) => (v === null ? '' : Math.round(v * 10) / 10);
const hm = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;

export interface SafetyExportFilters {
  from?: string;
  to?: string;
  driverId?: string;
  assetId?: string;
  groupId?: string;
  type?: Array<keyof typeof SAFETY_EVENT_TYPE_LABELS>;
  status?: Array<keyof typeof SAFETY_STATUS_LABELS>;
  severity?: Array<keyof typeof SAFETY_SEVERITY_LABELS>;
}

/** The events over the filters, every one up to 10,000. */
export async function exportSafetyEvents(
  scope: ReadScope,
  userId: string | null,
  f: SafetyExportFilters,
  format: 'csv' | 'pdf',
  timeZone?: string,
): Promise<ExportFile> {
  const ctx = await reportContext(scope, userId, timeZone);
  const page = await listSafetyEvents(scope, { ...f, page: 0, size: MAX_ROWS });
  const u = UNIT_LABELS[ctx.units];
  const speed = (v: number | null) => (v === null ? '' : d1(speedFromKmh(v, ctx.units)));
  const sheet: Sheet = {
    title: 'Safety events',
    more: page.totalElements - page.content.length,
    columns: [
      { title: 'Started', csv: `Started (${ctx.timeZone})`, width: 100 },
      { title: 'Event', csv: 'Event', width: 90 },
      { title: 'Severity', csv: 'Severity', width: 50 },
      { title: 'Status', csv: 'Status', width: 70 },
      { title: 'Driver', csv: 'Driver', width: 90 },
      { title: 'Vehicle', csv: 'Vehicle', width: 50 },
      { title: 'Where', csv: 'Where', width: 120 },
      { title: 'Duration', csv: 'Duration (h:mm)', width: 45, align: 'right' },
      { title: `Max (${u.speed})`, csv: `Max speed (${u.speed})`, width: 45, align: 'right' },
      { title: `Limit (${u.speed})`, csv: `Limit (${u.speed})`, width: 45, align: 'right' },
      { title: 'Strength (m/s²)', csv: 'Strength (m/s²)', width: 50, align: 'right' },
      { title: 'Source', csv: 'Source', width: 90 },
    ],
    rows: page.content.map((e) => [
      timeIn(e.startedAt, ctx.timeZone),
      `${SAFETY_EVENT_TYPE_LABELS[e.type]}${e.band ? ` (${SPEEDING_BAND_LABELS[e.band].toLowerCase()})` : ''}`,
      SAFETY_SEVERITY_LABELS[e.severity],
      SAFETY_STATUS_LABELS[e.status],
      e.driverName ?? '',
      e.assetName,
      e.place ?? '',
      hm(e.durationS),
      speed(e.maxSpeedKph),
      speed(e.limitKph),
      e.strengthMps2 ?? '',
      e.limitSource ? `${e.sourceLabel}: ${e.limitSource}` : e.sourceLabel,
    ]),
  };
  const name = `safety-events.${format}`;
  if (format === 'csv') return { body: sheetCsv(sheet), type: 'text/csv; charset=utf-8', name };
  return { body: await sheetPdf(sheet, ctx, f, ''), type: 'application/pdf', name };
}

/** The scores per driver or vehicle over the period, each behaviour's points in a column (`timeZone`: a subscription's). */
export async function exportSafetyScores(
  scope: ReadScope,
  userId: string | null,
  f: { from?: string; to?: string; groupBy: SafetyGroupBy; groupId?: string },
  format: 'csv' | 'pdf',
  timeZone?: string,
): Promise<ExportFile> {
  const ctx = await reportContext(scope, userId, timeZone);
  const scores = await computeScores(scope.db, scope.orgId, f);
  const used = SAFETY_BEHAVIOURS.filter((b) => scores.rows.some((r) => r.behaviours.some((x) => x.behaviour === b && x.points > 0)));
  const u = UNIT_LABELS[ctx.units];
  const sheet: Sheet = {
    title: `Safety scores per ${f.groupBy}`,
    more: 0,
    columns: [
      { title: f.groupBy === 'driver' ? 'Driver' : 'Vehicle', csv: f.groupBy === 'driver' ? 'Driver' : 'Vehicle', width: 110 },
      { title: 'Score', csv: 'Score', width: 40, align: 'right' },
      { title: `Distance (${u.distance})`, csv: `Distance (${u.distance})`, width: 55, align: 'right' },
      { title: 'Driving (h:mm)', csv: 'Driving (h:mm)', width: 50, align: 'right' },
      { title: 'Events', csv: 'Events', width: 40, align: 'right' },
      { title: 'Speeding %', csv: 'Speeding (% of driving)', width: 50, align: 'right' },
      ...used.map((b) => ({ title: `${b.replace(/_/g, ' ').toLowerCase()} pts`, csv: `${b} points`, width: 50, align: 'right' as const })),
    ],
    rows: scores.rows.map((r) => [
      r.name,
      r.score === null ? 'Under 100 mi' : r.score,
      d1(ctx.units === 'IMPERIAL' ? r.miles : r.distanceKm),
      hm(r.drivingSeconds),
      r.events,
      d1(r.speedingShare * 100),
      ...used.map((b) => r.behaviours.find((x) => x.behaviour === b)?.points ?? 0),
    ]),
  };
  const name = `safety-scores-${f.groupBy}.${format}`;
  if (format === 'csv') return { body: sheetCsv(sheet), type: 'text/csv; charset=utf-8', name };
  return {
    body: await sheetPdf(sheet, ctx, { from: scores.from, to: scores.to }, `Fleet score ${scores.fleet.score ?? 'not scored'}`),
    type: 'application/pdf',
    name,
  };
}
