import { sql, type SQL } from 'drizzle-orm';
import { REPORT_KIND_LABELS, UNIT_LABELS, distanceFromKm, speedFromKmh, type ReportFilters, type ReportKind } from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { unparseCsv } from '../../lib/csv.ts';
import type { ReadScope } from '../auth/index.ts';
import { contentWidth, fields, pdfBuffer, table, timeIn, type Column } from '../maintenance/index.ts';
import { EXPORT_MAX_ROWS, checkFilters, queryStops, querySummary, queryTrips, queryVisits, reportContext, type ReportContext } from './reports.service.ts';

// CSV and PDF of the four reports (issue 32, decision 0163), for a download and for the scheduled
// e-mails: in the organization's units, times in the reader's zone with the zone named, CSV through
// the formula-safe writer (decision 0141), PDF drawn like the maintenance and IFTA exports.

export interface ExportFile {
  body: string | Buffer;
  type: string;
  name: string;
}

export type ReportExportFilters = ReportFilters & { by?: 'vehicle' | 'driver' };

/** A report as a header and rows of text cells (numbers stay numbers in the CSV). */
export interface Sheet {
  title: string;
  columns: Array<Column & { csv: string }>;
  rows: Array<Array<string | number>>;
  /** Rows left out beyond EXPORT_MAX_ROWS. */
  more: number;
}

const hm = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
const whereText = (w: { place: { name: string } | null; address: string | null }) =>
  w.place ? `${w.place.name}${w.address ? ` (${w.address})` : ''}` : (w.address ?? '');
const d1 = (v: number) => Math.round(v * 10) / 10;

/** The sheet of a report over its filters, every row up to EXPORT_MAX_ROWS, in `ctx`'s zone and units. */
export async function reportSheet(scope: ReadScope, ctx: ReportContext, kind: ReportKind, f: ReportExportFilters): Promise<Sheet> {
  const all = { page: 0, size: EXPORT_MAX_ROWS } as const;
  const u = UNIT_LABELS[ctx.units];
  const zone = ctx.timeZone;
  const when = (iso: string | null) => (iso ? timeIn(iso, zone) : '');
  const dist = (km: number) => d1(distanceFromKm(km, ctx.units));
  const speed = (kmh: number) => d1(speedFromKmh(kmh, ctx.units));
  const title = REPORT_KIND_LABELS[kind];
  if (kind === 'VISITS') {
    const { rows, total } = await queryVisits(scope, ctx, f, all);
    return {
      title,
      more: total - rows.length,
      columns: [
        { title: 'Place', csv: 'Place', width: 120 },
        { title: 'Vehicle', csv: 'Vehicle', width: 60 },
        { title: 'Driver', csv: 'Driver', width: 100 },
        { title: 'Arrived', csv: `Arrived (${zone})`, width: 110 },
        { title: 'Departed', csv: `Departed (${zone})`, width: 110 },
        { title: 'Dwell (h:mm)', csv: 'Dwell (h:mm)', width: 60, align: 'right' },
        { title: 'Detention (h:mm)', csv: 'Detention (h:mm)', width: 70, align: 'right' },
      ],
      rows: rows.map((r) => [
        r.placeName,
        r.unitNumber,
        r.driverName ?? '',
        when(r.arrivedAt),
        r.departedAt ? when(r.departedAt) : 'Still there',
        hm(r.dwellSeconds),
        hm(r.detentionSeconds),
      ]),
    };
  }
  if (kind === 'TRIPS') {
    const { rows, total } = await queryTrips(scope, f, all);
    return {
      title,
      more: total - rows.length,
      columns: [
        { title: 'Vehicle', csv: 'Vehicle', width: 50 },
        { title: 'Driver', csv: 'Driver', width: 80 },
        { title: 'Started', csv: `Started (${zone})`, width: 95 },
        { title: 'From', csv: 'From', width: 115 },
        { title: 'Ended', csv: `Ended (${zone})`, width: 95 },
        { title: 'To', csv: 'To', width: 115 },
        { title: `Distance (${u.distance})`, csv: `Distance (${u.distance})`, width: 55, align: 'right' },
        { title: 'Duration', csv: 'Duration (h:mm)', width: 45, align: 'right' },
        { title: `Max (${u.speed})`, csv: `Max speed (${u.speed})`, width: 45, align: 'right' },
        { title: `Avg (${u.speed})`, csv: `Average speed (${u.speed})`, width: 45, align: 'right' },
      ],
      rows: rows.map((r) => [
        r.asset.unitNumber,
        r.driver?.name ?? '',
        when(r.startedAt),
        whereText(r.start),
        r.inProgress ? `In progress (${when(r.endedAt)})` : when(r.endedAt),
        whereText(r.end),
        dist(r.distanceKm),
        hm(r.durationSeconds),
        speed(r.maxSpeedKmh),
        speed(r.avgSpeedKmh),
      ]),
    };
  }
  if (kind === 'STOPS') {
    const { rows, total } = await queryStops(scope, ctx, f, all);
    return {
      title,
      more: total - rows.length,
      columns: [
        { title: 'Vehicle', csv: 'Vehicle', width: 55 },
        { title: 'Driver', csv: 'Driver', width: 90 },
        { title: 'Started', csv: `Started (${zone})`, width: 105 },
        { title: 'Ended', csv: `Ended (${zone})`, width: 105 },
        { title: 'Where', csv: 'Where', width: 170 },
        { title: 'Duration', csv: 'Duration (h:mm)', width: 50, align: 'right' },
        { title: 'Idling', csv: 'Idling (h:mm)', width: 50, align: 'right' },
        { title: 'Engine', csv: 'Engine', width: 45 },
      ],
      rows: rows.map((r) => [
        r.asset.unitNumber,
        r.driver?.name ?? '',
        when(r.startedAt),
        r.endedAt ? when(r.endedAt) : 'Still stopped',
        whereText(r.where),
        hm(r.durationSeconds),
        hm(r.idleSeconds),
        r.engineOn === null ? '' : r.engineOn ? 'On' : 'Off',
      ]),
    };
  }
  const { rows, total } = await querySummary(scope, ctx, f, all);
  const byDriver = rows.some((r) => r.driver) || f.by === 'driver';
  return {
    title,
    more: total - rows.length,
    columns: [
      { title: 'Day', csv: `Day (${zone})`, width: 70 },
      { title: byDriver ? 'Driver' : 'Vehicle', csv: byDriver ? 'Driver' : 'Vehicle', width: 110 },
      { title: `Distance (${u.distance})`, csv: `Distance (${u.distance})`, width: 70, align: 'right' },
      { title: 'Driving', csv: 'Driving (h:mm)', width: 60, align: 'right' },
      { title: 'Idling', csv: 'Idling (h:mm)', width: 60, align: 'right' },
      { title: 'Stops', csv: 'Stops', width: 45, align: 'right' },
      { title: 'First movement', csv: `First movement (${zone})`, width: 120 },
      { title: 'Last movement', csv: `Last movement (${zone})`, width: 120 },
    ],
    rows: rows.map((r) => [
      r.day,
      byDriver ? (r.driver?.name ?? 'No driver') : (r.asset?.unitNumber ?? ''),
      dist(r.distanceKm),
      hm(r.drivingSeconds),
      hm(r.idleSeconds),
      r.stops,
      when(r.firstMovementAt),
      r.inProgress ? `${when(r.lastMovementAt)} (trip in progress)` : when(r.lastMovementAt),
    ]),
  };
}

const fileDay = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

/** What the filters say, in words for the file's heading. */
function periodText(ctx: ReportContext, f: ReportFilters): string {
  const from = f.from ? timeIn(f.from, ctx.timeZone) : 'the beginning';
  const to = f.to ? timeIn(f.to, ctx.timeZone) : 'now';
  return `${from} to ${to}`;
}

export function sheetCsv(s: Sheet): string {
  const body = unparseCsv(
    s.columns.map((c) => c.csv),
    s.rows,
  );
  return s.more > 0 ? `${body}\r\n${unparseCsv(['Note'], [[`${s.more} more rows were left out: narrow the period or the filters`]])}\r\n` : `${body}\r\n`;
}

export function sheetPdf(s: Sheet, ctx: ReportContext, f: ReportFilters, filterWords: string): Promise<Buffer> {
  return pdfBuffer(`${s.title} report`, 'landscape', (doc) => {
    const left = doc.page.margins.left;
    doc.font('Helvetica-Bold').fontSize(14).fillColor('#111827').text(`${s.title}`, left, doc.y, { lineBreak: false });
    doc.y += 20;
    fields(
      doc,
      [
        ['Organization', ctx.orgName],
        ['Period', periodText(ctx, f)],
        ['Time zone', ctx.timeZone],
        ['Units', ctx.units === 'IMPERIAL' ? 'Miles, mph' : 'Kilometres, km/h'],
        ['Filters', filterWords || 'None'],
        ['Rows', String(s.rows.length + s.more)],
      ],
      3,
    );
    // The columns stretched to the page.
    const sum = s.columns.reduce((a, c) => a + c.width, 0);
    const k = contentWidth(doc) / sum;
    const cols = s.columns.map((c) => ({ ...c, width: c.width * k }));
    if (s.rows.length === 0)
      doc
        .font('Helvetica-Oblique')
        .fontSize(9)
        .fillColor('#374151')
        .text('Nothing in this period.', left, doc.y + 6);
    else
      table(
        doc,
        cols,
        s.rows.map((r) => ({ cells: r.map(String) })),
      );
    if (s.more > 0)
      doc
        .font('Helvetica-Oblique')
        .fontSize(8)
        .fillColor('#374151')
        .text(`${s.more} more rows were left out: narrow the period or the filters.`, left, doc.y + 4);
  });
}

/** The filters in words (names, not ids) for a file's heading and an e-mail. */
export async function filterWords(scope: ReadScope, f: ReportExportFilters): Promise<string> {
  const parts: string[] = [];
  const name = async (q: SQL) => rowsOf<{ n: string }>(await scope.db.execute(q))[0]?.n ?? '';
  if (f.assetId) parts.push(`Vehicle ${await name(sql`select unit_number as n from assets where id = ${f.assetId} and organization_id = ${scope.orgId}`)}`);
  if (f.driverId)
    parts.push(
      `Driver ${await name(sql`select first_name || ' ' || last_name as n from drivers where id = ${f.driverId} and organization_id = ${scope.orgId}`)}`,
    );
  if (f.groupId) parts.push(`Group ${await name(sql`select name as n from groups where id = ${f.groupId} and organization_id = ${scope.orgId}`)}`);
  if (f.placeId) parts.push(`Place ${await name(sql`select name as n from places where id = ${f.placeId} and organization_id = ${scope.orgId}`)}`);
  if (f.by === 'driver') parts.push('per driver');
  return parts.join(', ');
}

/** The export of a report in a reader's zone: CSV or PDF. */
export async function exportReport(scope: ReadScope, ctx: ReportContext, kind: ReportKind, f: ReportExportFilters, format: 'csv' | 'pdf'): Promise<ExportFile> {
  const sheet = await reportSheet(scope, ctx, kind, f);
  const base = `${kind.toLowerCase()}-${fileDay(f.from ? Date.parse(f.from) : ctx.now, ctx.timeZone)}`;
  if (format === 'csv') return { body: sheetCsv(sheet), type: 'text/csv; charset=utf-8', name: `${base}.csv` };
  return { body: await sheetPdf(sheet, ctx, f, await filterWords(scope, f)), type: 'application/pdf', name: `${base}.pdf` };
}

/** A download by the signed-in reader (their zone). */
export async function downloadReport(scope: ReadScope, userId: string, kind: ReportKind, f: ReportExportFilters, format: 'csv' | 'pdf'): Promise<ExportFile> {
  await checkFilters(scope, f);
  return exportReport(scope, await reportContext(scope, userId), kind, f, format);
}
