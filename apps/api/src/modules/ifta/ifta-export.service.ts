import { fuelTypeLabel, quarterLabel, type IftaDistanceDay, type IftaReport } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { unparseCsv } from '../../lib/csv.ts';
import { buildReport, type ReportQuery } from './ifta-report.service.ts';
import { listDistanceDays } from './ifta-records.service.ts';
import { METRES_PER_MILE } from './return-math.ts';
import type { ReadScope } from '../auth/index.ts';
import { contentWidth, fields, pdfBuffer, section, table, type Column } from '../maintenance/index.ts';
import { iftaClockOf } from './ifta-zone.ts';

// CSV and PDF of the return and of the per-vehicle distance records (decision 0126). pdfkit on the
// server: the same figures as the screen, with the standard PDF fonts (nothing to embed).

const money = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const int = (v: number) => v.toLocaleString('en-US');
const rate = (v: number | null) => (v === null ? '—' : v.toFixed(4));
const mi = (m: number) => (m / METRES_PER_MILE).toFixed(1);

/** "3 of 5 items to review are not marked reviewed: ..." (the top of the exports). */
export function unreviewedText(r: IftaReport): string {
  const { items, unreviewed } = r.review;
  return `${unreviewed} of ${items} item${items === 1 ? '' : 's'} to review ${unreviewed === 1 ? 'is' : 'are'} not marked reviewed: check them (listed under To review) before signing this return`;
}

export function returnCsv(r: IftaReport): string {
  const header = [
    'Jurisdiction',
    'Name',
    'Fuel type',
    'Total miles',
    'Taxable miles',
    'Taxable gallons',
    'Tax-paid gallons',
    'Net taxable gallons',
    'Rate',
    'Tax (credit)',
    'Surcharge rate',
    'Surcharge',
    'Interest',
    'Total',
  ];
  const data: Array<Array<string | number>> = r.rows.map((x) => [
    x.jurisdiction,
    x.name,
    fuelTypeLabel(x.fuelType),
    x.totalMiles,
    x.taxableMiles,
    x.taxableGallons,
    x.taxPaidGallons,
    x.netTaxableGallons,
    x.rate === null ? '' : x.rate.toFixed(4),
    x.tax.toFixed(2),
    x.surchargeRate === null ? '' : x.surchargeRate.toFixed(4),
    x.surcharge.toFixed(2),
    x.interest.toFixed(2),
    x.total.toFixed(2),
  ]);
  const t = r.totals;
  data.push([
    'TOTAL',
    '',
    fuelTypeLabel(r.fuelType),
    t.totalMiles,
    t.taxableMiles,
    t.taxableGallons,
    t.taxPaidGallons,
    t.taxableGallons - t.taxPaidGallons,
    '',
    t.tax.toFixed(2),
    '',
    t.surcharge.toFixed(2),
    t.interest.toFixed(2),
    (t.total - t.penalty).toFixed(2),
  ]);
  const summary = [
    ['Licensee', r.licensee.name],
    ['USDOT', r.licensee.dotNumber ?? ''],
    ['Quarter', `${quarterLabel(r.quarter)} (${r.from} to ${r.to} exclusive, days in ${r.timeZone}, the base jurisdiction's zone)`],
    ['Fuel type', fuelTypeLabel(r.fuelType)],
    ['Total miles (all jurisdictions)', String(t.totalMiles)],
    ['Non-IFTA miles', String(t.nonMemberMiles)],
    ['Total gallons', String(t.totalGallons)],
    ['Fleet MPG', t.mpg === null ? '' : t.mpg.toFixed(2)],
    ['Penalty', t.penalty.toFixed(2)],
    ['Total due (refund)', t.total.toFixed(2)],
    ['Tax rates of', r.ratesQuarter ?? 'none imported'],
    ['Due date', r.dueDate],
    ['Figures as of', r.asOf],
    ...(r.filing ? [['Filed', `version ${r.filing.version} on ${r.filing.filedAt}`]] : []),
  ];
  // Said first: figures with unchecked items are not ready to sign; miles left out are named.
  const jumps = jumpsText(r);
  if (jumps) summary.unshift(['NOT COUNTED', jumps.replace(/^NOT COUNTED: /, '')]);
  if (r.review.unreviewed > 0) summary.unshift(['NOT REVIEWED', unreviewedText(r)]);
  const cards = cardText(r);
  if (cards) summary.push(['Fuel-card purchases', cards]);
  return `${unparseCsv(['Field', 'Value'], summary)}\r\n\r\n${unparseCsv(header, data)}\r\n`;
}

export function distanceCsv(days: readonly IftaDistanceDay[], zone = 'UTC'): string {
  const header = [
    'Unit',
    `Day (${zone})`,
    'First fix',
    'Last fix',
    'Odometer start (mi)',
    'Odometer end (mi)',
    'Miles',
    'Miles by jurisdiction',
    'Interpolated miles',
    'State-line crossings',
    'Source',
  ];
  const data = days.map((d) => [
    d.unitNumber,
    d.day,
    d.firstFixAt ?? '',
    d.lastFixAt ?? '',
    d.odometerStartM === null ? '' : mi(d.odometerStartM),
    d.odometerEndM === null ? '' : mi(d.odometerEndM),
    mi(d.metres),
    d.jurisdictions.map((j) => `${j.jurisdiction} ${mi(j.metres)}`).join('; '),
    mi(d.jurisdictions.reduce((s, j) => s + j.interpolatedMetres, 0)),
    d.crossings
      .map((c) => `${c.time} ${c.from}>${c.to} at ${c.latitude.toFixed(5)},${c.longitude.toFixed(5)}${c.odometerM === null ? '' : ` odo ${mi(c.odometerM)}`}`)
      .join('; '),
    d.imported ? 'Imported GPS history' : 'Device',
  ]);
  return `${unparseCsv(header, data)}\r\n`;
}

/** Every distance-record day of the quarter (pages of 1,000 read in turn). */
export async function allDistanceDays(db: DbOrTx, orgId: string, quarter: string, assetId?: string): Promise<IftaDistanceDay[]> {
  const out: IftaDistanceDay[] = [];
  for (let page = 0; ; page++) {
    const p = await listDistanceDays({ db, orgId }, { quarter, assetId, page, size: 1000 });
    out.push(...p.content);
    if (page + 1 >= p.totalPages) return out;
  }
}

/** Space a heading needs below it (its table's header and first rows), so it never stands alone at a page's foot. */
const KEEP_WITH_NEXT = 70;

/** A section heading kept with what follows: a new page first when too little room is left. */
function sectionKept(doc: PDFKit.PDFDocument, title: string): void {
  if (doc.y + KEEP_WITH_NEXT > doc.page.height - doc.page.margins.bottom) doc.addPage();
  section(doc, title);
}

/** Columns given as relative widths, stretched to the page's width (as the trip and summary reports do). */
function stretched(doc: PDFKit.PDFDocument, columns: Column[]): Column[] {
  const sum = columns.reduce((a, c) => a + c.width, 0);
  const k = contentWidth(doc) / sum;
  return columns.map((c) => ({ ...c, width: c.width * k }));
}

/** The title, a red box for a warning before any figure, and the heading's fields. */
function heading(doc: PDFKit.PDFDocument, title: string, pairs: ReadonlyArray<readonly [string, string]>, warnings: readonly string[] = []): void {
  const left = doc.page.margins.left;
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor('#111827')
    .text(title, left, doc.y, { width: contentWidth(doc) });
  doc.y += 4;
  for (const warning of warnings) {
    const width = contentWidth(doc);
    doc.font('Helvetica-Bold').fontSize(9.5);
    const h = doc.heightOfString(warning, { width: width - 16 }) + 10;
    const y = doc.y;
    doc.rect(left, y, width, h).fillAndStroke('#fef2f2', '#b91c1c');
    doc.fillColor('#991b1b').text(warning, left + 8, y + 5, { width: width - 16 });
    doc.x = left;
    doc.y = y + h + 6;
  }
  fields(doc, pairs, 4);
}

/** "NOT COUNTED: 716 mi of 1 day's jumps ... (TX 700, OK 16)" when jumps await acceptance. */
export function jumpsText(r: IftaReport): string | null {
  const j = r.unacceptedJumps;
  if (j.miles <= 0 && j.days === 0) return null;
  return `NOT COUNTED: ${int(j.miles)} mi of jumps flagged as impossible (faster than 90 mph) on ${j.days} vehicle-day${j.days === 1 ? '' : 's'} are left out of every total until someone accepts them (marks them reviewed under To review)${
    j.jurisdictions.length ? `: ${j.jurisdictions.map((x) => `${x.jurisdiction} ${int(x.miles)}`).join(', ')}` : ''
  }`;
}

/** "12 of 340 fuel-card purchases are not verified against their truck (1 disputed); they count in this return" (issue 68). */
export function cardText(r: IftaReport): string | null {
  const c = r.cardTransactions;
  if (c.unverified === 0) return null;
  return `${int(c.unverified)} of ${int(c.total)} fuel-card purchases are not verified against their truck${c.disputed ? ` (${int(c.disputed)} disputed)` : ''}; they count in this return`;
}

export function returnPdf(r: IftaReport): Promise<Buffer> {
  const t = r.totals;
  return pdfBuffer(`IFTA ${quarterLabel(r.quarter)}`, 'landscape', (doc) => {
    const warnings = [
      ...(r.review.unreviewed > 0 ? [`NOT REVIEWED: ${unreviewedText(r)}.`] : []),
      ...(jumpsText(r) ? [`${jumpsText(r)}.`] : []),
      ...(cardText(r) ? [`${cardText(r)}.`] : []),
    ];
    heading(
      doc,
      `IFTA quarterly return: ${quarterLabel(r.quarter)}, ${fuelTypeLabel(r.fuelType)}`,
      [
        ['Licensee', r.licensee.name],
        ['USDOT', r.licensee.dotNumber ?? ''],
        ['Base jurisdiction', r.licensee.baseJurisdiction ?? ''],
        ['Quarter', `${r.from} to ${r.to} (exclusive), days in ${r.timeZone}`],
        ['Due date', r.dueDate],
        ['Figures as of', r.asOf],
        ['Tax rates of', r.ratesQuarter ?? 'none imported'],
        ['Filed', r.filing ? `version ${r.filing.version}, ${r.filing.filedAt}` : 'not filed'],
        ['Total miles', `${int(t.totalMiles)} (non-IFTA ${int(t.nonMemberMiles)})`],
        ['Total gallons', int(t.totalGallons)],
        ['Fleet MPG', t.mpg === null ? '—' : t.mpg.toFixed(2)],
        ['Units', 'Miles and US gallons; US$ per gallon'],
      ],
      warnings,
    );
    sectionKept(doc, 'Jurisdictions');
    const cols = stretched(doc, [
      { title: 'Jur.', width: 38 },
      { title: 'Total mi', width: 62, align: 'right' },
      { title: 'Taxable mi', width: 62, align: 'right' },
      { title: 'Taxable gal', width: 62, align: 'right' },
      { title: 'Tax-paid gal', width: 64, align: 'right' },
      { title: 'Net gal', width: 56, align: 'right' },
      { title: 'Rate', width: 50, align: 'right' },
      { title: 'Tax (credit)', width: 70, align: 'right' },
      { title: 'Surcharge', width: 62, align: 'right' },
      { title: 'Interest', width: 56, align: 'right' },
      { title: 'Total', width: 72, align: 'right' },
    ]);
    const rows = r.rows.map((x) => ({
      cells: [
        x.jurisdiction,
        int(x.totalMiles),
        int(x.taxableMiles),
        int(x.taxableGallons),
        int(x.taxPaidGallons),
        int(x.netTaxableGallons),
        rate(x.rate),
        money(x.tax),
        money(x.surcharge),
        money(x.interest),
        money(x.total),
      ],
    }));
    rows.push({
      cells: [
        'Total',
        int(t.totalMiles - t.nonMemberMiles),
        int(t.taxableMiles),
        int(t.taxableGallons),
        int(t.taxPaidGallons),
        int(t.taxableGallons - t.taxPaidGallons),
        '',
        money(t.tax),
        money(t.surcharge),
        money(t.interest),
        money(t.total - t.penalty),
      ],
    });
    table(
      doc,
      cols,
      rows.map((row, i) => ({ ...row, bold: i === rows.length - 1 })),
      { rowH: 14 },
    );
    doc.moveDown(0.4);
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#111827')
      .text(`Penalty ${money(t.penalty)}    Total due (refund) ${money(t.total)} US$`, doc.page.margins.left, doc.y);
    if (r.amendment) {
      sectionKept(doc, `Amendment against the filed return: ${money(r.amendment.difference)} US$`);
      table(
        doc,
        stretched(doc, [
          { title: 'Jur.', width: 50 },
          { title: 'Filed mi', width: 80, align: 'right' },
          { title: 'Now mi', width: 80, align: 'right' },
          { title: 'Filed total', width: 90, align: 'right' },
          { title: 'Now total', width: 90, align: 'right' },
          { title: 'Difference', width: 90, align: 'right' },
        ]),
        r.amendment.rows.map((a) => ({
          cells: [a.jurisdiction, int(a.filedMiles), int(a.currentMiles), money(a.filedTotal), money(a.currentTotal), money(a.difference)],
        })),
        { rowH: 14 },
      );
    }
    if (r.vehicles.length) {
      sectionKept(doc, `Miles and fuel per vehicle (${r.vehicles.length})`);
      table(
        doc,
        stretched(doc, [
          { title: 'Unit', width: 60 },
          { title: 'Miles', width: 60, align: 'right' },
          { title: 'Gallons', width: 60, align: 'right' },
          { title: 'MPG', width: 45, align: 'right' },
          { title: 'Odometer mi', width: 70, align: 'right' },
          { title: 'Miles by jurisdiction', width: 425 },
        ]),
        r.vehicles.map((v) => ({
          cells: [
            v.unitNumber,
            int(v.totalMiles),
            int(v.gallons),
            v.mpg === null ? '—' : v.mpg.toFixed(2),
            v.odometerMiles === null ? '—' : int(v.odometerMiles),
            v.jurisdictions.map((j) => `${j.jurisdiction} ${int(j.miles)}`).join(', '),
          ],
        })),
        { rowH: 14, grow: true },
      );
    }
    if (r.flags.length) {
      sectionKept(doc, `To review (${r.flags.length}, ${r.review.unreviewed} not reviewed)`);
      table(
        doc,
        stretched(doc, [
          { title: 'Kind', width: 100 },
          { title: 'Unit', width: 45 },
          { title: 'Day', width: 62 },
          { title: 'Detail', width: 393 },
          { title: 'Reviewed', width: 120 },
        ]),
        r.flags.map((f) => ({
          cells: [
            f.kind.replace(/_/g, ' ').toLowerCase(),
            f.unitNumber ?? '',
            f.day ?? '',
            f.message,
            f.reviewed ? `${f.reviewed.at.slice(0, 10)} ${f.reviewed.by ?? ''}`.trim() : 'not reviewed',
          ],
        })),
        { rowH: 14, grow: true },
      );
    }
    doc
      .moveDown(1)
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#6b7280')
      .text(`Boundaries: ${r.boundaryDataset}. ${daysNote(r)}`, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  });
}

/** Which days the quarter's figures are cut in. */
function daysNote(r: IftaReport): string {
  return `Days are those of ${r.timeZone}${r.licensee.baseJurisdiction ? `, the zone of the base jurisdiction ${r.licensee.baseJurisdiction}` : ''} (decision 0189).`;
}

export function distancePdf(title: string, days: readonly IftaDistanceDay[], zone = 'UTC'): Promise<Buffer> {
  return pdfBuffer(title, 'landscape', (doc) => {
    heading(doc, title, [
      ['Vehicle-days', String(days.length)],
      ['Units', 'Miles; odometer in miles'],
      ['Days', `${zone} (the base jurisdiction's zone); fix and crossing times UTC`],
      ['(imported)', 'GPS history imported from another system'],
    ]);
    sectionKept(doc, 'Distance records');
    table(
      doc,
      stretched(doc, [
        { title: 'Unit', width: 55 },
        { title: 'Day', width: 62 },
        { title: 'First / last fix', width: 80 },
        { title: 'Odometer start-end', width: 100, align: 'right' },
        { title: 'Miles', width: 50, align: 'right' },
        { title: 'By jurisdiction', width: 150 },
        { title: 'Crossings (UTC time, from>to)', width: 223 },
      ]),
      days.map((d) => ({
        cells: [
          d.imported ? `${d.unitNumber} (imported)` : d.unitNumber,
          d.day,
          `${d.firstFixAt?.slice(11, 16) ?? ''}-${d.lastFixAt?.slice(11, 16) ?? ''}`,
          d.odometerStartM === null ? '—' : `${mi(d.odometerStartM)}-${d.odometerEndM === null ? '' : mi(d.odometerEndM)}`,
          mi(d.metres),
          d.jurisdictions.map((j) => `${j.jurisdiction} ${mi(j.metres)}`).join(', '),
          d.crossings.map((c) => `${c.time.slice(11, 16)} ${c.from}>${c.to}`).join(', '),
        ],
      })),
      { rowH: 14, grow: true },
    );
  });
}

export async function exportReturn(scope: ReadScope, q: ReportQuery, format: 'csv' | 'pdf'): Promise<{ body: string | Buffer; type: string; name: string }> {
  const r = await buildReport(scope, q);
  const name = `ifta-${q.quarter}-${q.fuelType.toLowerCase()}`;
  return format === 'csv'
    ? { body: returnCsv(r), type: 'text/csv; charset=utf-8', name: `${name}.csv` }
    : { body: await returnPdf(r), type: 'application/pdf', name: `${name}.pdf` };
}

export async function exportDistance(
  scope: ReadScope,
  q: { quarter: string; assetId?: string },
  format: 'csv' | 'pdf',
): Promise<{ body: string | Buffer; type: string; name: string }> {
  const days = await allDistanceDays(scope.db, scope.orgId, q.quarter, q.assetId);
  const { zone } = await iftaClockOf(scope.db, scope.orgId);
  const name = `ifta-${q.quarter}-distance-records`;
  return format === 'csv'
    ? { body: distanceCsv(days, zone), type: 'text/csv; charset=utf-8', name: `${name}.csv` }
    : { body: await distancePdf(`IFTA distance records: ${quarterLabel(q.quarter)}`, days, zone), type: 'application/pdf', name: `${name}.pdf` };
}
