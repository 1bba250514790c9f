import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS, DVIR_ITEMS, UNIT_LABELS, distanceFromKm, type Dvir, type UnitSystem } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import {
  assets,
  drivers,
  dvirs,
  images,
  maintenanceSchedules,
  maintenanceServices,
  organizations,
  users,
  vehicleDefects,
  workOrders,
} from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { unparseCsv } from '../../lib/csv.ts';
import type { AuthContext, ReadScope } from '../auth/index.ts';
import { getDvir } from './dvirs.service.ts';
import { bottomOf, contentWidth, fields, pdfBuffer, picture, section, table, type Column, type Doc } from './maintenance-pdf.ts';

// CSV and PDF of an inspection report and of a unit's maintenance history (issue 31, decision 0160).
// The report's PDF is the one-page form an officer reads at the roadside: the carrier, the units,
// the odometer in the organization's units, the time in the driver's home-terminal zone (labelled),
// each item, the driver's signature, the mechanic's certifications and the next driver's review.

export interface ExportFile {
  body: string | Buffer;
  type: string;
  name: string;
}
type Format = 'csv' | 'pdf';
type StoredImage = { contentType: string; data: Buffer };

interface Carrier {
  name: string;
  address: string;
  dotNumber: string | null;
  units: UnitSystem;
  timeZone: string;
}

const KIND_WORDS = { PRE_TRIP: 'Pre-trip', POST_TRIP: 'Post-trip' } as const;
const DEFECT_WORDS = { OPEN: 'Open', REPAIRED: 'Repaired', NOT_NEEDED: 'Repair unnecessary' } as const;
const ORDER_WORDS = { OPEN: 'Open', IN_PROGRESS: 'In progress', DONE: 'Done' } as const;

/** "Nov 24, 2026, 06:05 CST": a time in `zone`, the zone's short name said. */
export function timeIn(at: Date | string, zone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(at));
}

/** Kilometres in the organization's distance unit, with the unit: "123,456.7 mi". */
export function odometerText(km: number | null, units: UnitSystem): string {
  if (km === null) return '';
  return `${distanceFromKm(km, units).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${UNIT_LABELS[units].distance}`;
}

const money = (cents: number | null) => (cents === null ? '' : (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const fileDay = (at: Date | string, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'unit';

async function carrierOf(db: DbOrTx, orgId: string): Promise<Carrier> {
  const [o] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  if (!o) throw notFound('Organization');
  const cityLine = [o.city, [o.state, o.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return {
    name: o.name,
    address: [o.addressLine1, o.addressLine2, cityLine].filter(Boolean).join(', '),
    dotNumber: o.dotNumber,
    units: o.settings.units ?? DEFAULT_ORGANIZATION_SETTINGS.units,
    timeZone: o.timeZone,
  };
}

/** The organization's images among `ids`, by id (a signature is drawn from the image store). */
async function imagesOf(db: DbOrTx, orgId: string, ids: ReadonlyArray<string | null | undefined>): Promise<Map<string, StoredImage>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: images.id, contentType: images.contentType, data: images.data })
    .from(images)
    .where(and(eq(images.organizationId, orgId), inArray(images.id, wanted)));
  return new Map(rows.map((r) => [r.id, { contentType: r.contentType, data: r.data }]));
}

// ---------------------------------------------------------------- one report

interface ReportData {
  dvir: Dvir;
  carrier: Carrier;
  /** The zone the report's times are shown in: the driver's home terminal, else the organization's. */
  zone: string;
  images: Map<string, StoredImage>;
  workOrders: Map<string, string>;
}

const unitName = (d: Dvir, assetId: string) =>
  assetId === d.asset.id ? `Vehicle ${d.asset.unitNumber}` : `Trailer ${d.trailers.find((t) => t.id === assetId)?.unitNumber ?? ''}`;
const certificationText = (x: Dvir['defects'][number], zone: string) =>
  x.certifiedBy
    ? `${DEFECT_WORDS[x.status]}, certified by ${x.certifiedBy.name}${x.certifiedAt ? ` on ${timeIn(x.certifiedAt, zone)}` : ''}${x.certification ? `: ${x.certification}` : ''}`
    : 'Not certified yet';

export function dvirCsv(r: ReportData): string {
  const { dvir: d, carrier: c, zone } = r;
  const summary: string[][] = [
    ['Carrier', c.name],
    ['Address', c.address],
    ['USDOT', c.dotNumber ?? ''],
    ['Inspection', KIND_WORDS[d.kind]],
    ['Inspected at', timeIn(d.inspectedAt, zone)],
    ['Time zone', zone],
    ['Vehicle', d.asset.unitNumber],
    ['Trailers', d.trailers.map((t) => t.unitNumber).join(', ')],
    [`Odometer (${UNIT_LABELS[c.units].distance})`, d.odometer === null ? '' : distanceFromKm(d.odometer, c.units).toFixed(1)],
    ['Location', d.location ?? ''],
    ['Driver', d.driver?.name ?? ''],
    ['Driver signature', `${d.signature.name}${d.signature.imageId ? ' (drawn signature on file)' : ''}`],
    ['Remarks', d.remarks ?? ''],
    ['Condition', d.unsafe ? 'Not safe to operate: a defect affecting safe operation is open' : d.hasDefects ? 'Defects reported' : 'No defects'],
    ['Reviewed by next driver', d.review ? `${d.review.signature.name} on ${timeIn(d.review.reviewedAt, zone)}` : ''],
  ];
  const defectOf = new Map(d.defects.map((x) => [x.id, x]));
  const rows = d.items.map((i) => {
    const x = i.defectId ? defectOf.get(i.defectId) : undefined;
    return [
      unitName(d, i.assetId),
      i.label,
      i.ok ? 'Pass' : 'Defect',
      i.ok ? '' : i.safety ? 'Yes' : 'No',
      i.note ?? '',
      i.imageIds.length,
      x ? DEFECT_WORDS[x.status] : '',
      x?.certifiedBy?.name ?? '',
      x?.certifiedAt ? timeIn(x.certifiedAt, zone) : '',
      x?.certification ?? '',
      x?.workOrderId ? (r.workOrders.get(x.workOrderId) ?? x.workOrderId) : '',
    ];
  });
  const header = [
    'Unit',
    'Item',
    'Result',
    'Affects safe operation',
    'Note',
    'Photos',
    'Defect status',
    'Certified by',
    'Certified at',
    'Certification',
    'Work order',
  ];
  return `${unparseCsv(['Field', 'Value'], summary)}\r\n\r\n${unparseCsv(header, rows)}\r\n`;
}

/** A signature line: the drawn image when there is one (PNG or JPEG), the typed name and when. */
function signatureBlock(doc: Doc, title: string, name: string, image: StoredImage | null, when: string, x: number, y: number, w: number): void {
  doc.font('Helvetica').fontSize(6.5).fillColor('#6b7280').text(title.toUpperCase(), x, y, { width: w, lineBreak: false });
  const drawn = picture(doc, image, x, y + 8, [Math.min(w, 140), 26]);
  const lineY = y + 36;
  doc
    .moveTo(x, lineY)
    .lineTo(x + w - 8, lineY)
    .strokeColor('#374151')
    .lineWidth(0.5)
    .stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor('#111827')
    .text(`${name}${drawn ? '' : ' (typed)'}`, x, lineY + 2, { width: w - 8, lineBreak: false, ellipsis: true });
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor('#374151')
    .text(when, x, lineY + 12, { width: w - 8, lineBreak: false, ellipsis: true });
}

export function dvirPdf(r: ReportData): Promise<Buffer> {
  const { dvir: d, carrier: c, zone } = r;
  return pdfBuffer(`Driver vehicle inspection report ${d.asset.unitNumber}`, 'portrait', (doc) => {
    const left = doc.page.margins.left;
    const width = contentWidth(doc);
    doc.font('Helvetica-Bold').fontSize(14).fillColor('#111827').text('Driver Vehicle Inspection Report', left, doc.y, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#374151')
      .text('49 CFR 396.11 and 396.13', left, doc.y + 2, { width, align: 'right', lineBreak: false });
    doc.y += 8;
    const status = d.unsafe
      ? 'NOT SAFE TO OPERATE: a defect affecting safe operation is open'
      : d.hasDefects
        ? d.defects.every((x) => x.status !== 'OPEN')
          ? 'Defects reported, all certified'
          : 'Defects reported'
        : 'No defects reported';
    doc.rect(left, doc.y, width, 16).fill(d.unsafe ? '#fef2f2' : '#f3f4f6');
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .fillColor(d.unsafe ? '#991b1b' : '#111827')
      .text(status, left + 6, doc.y + 4, { width: width - 12, lineBreak: false });
    doc.y += 8;
    fields(
      doc,
      [
        ['Carrier', c.name],
        ['Address', c.address],
        ['USDOT', c.dotNumber ?? ''],
        ['Inspection', KIND_WORDS[d.kind]],
        ['Date and time', timeIn(d.inspectedAt, zone)],
        ['Time zone', `${zone}${d.driver ? ' (home terminal)' : ''}`],
        ['Vehicle', d.asset.unitNumber],
        ['Trailers', d.trailers.map((t) => t.unitNumber).join(', ') || 'None'],
        ['Odometer', odometerText(d.odometer, c.units)],
        ['Location', d.location ?? ''],
        ['Driver', d.driver?.name ?? d.signature.name],
        ['Remarks', d.remarks ?? ''],
      ],
      3,
    );

    section(doc, 'Items inspected');
    const cols: Column[] = [
      { title: 'Unit', width: 72 },
      { title: 'Item', width: 200 },
      { title: 'Result', width: 44 },
      { title: 'Safety', width: 34 },
      { title: 'Note', width: width - 72 - 200 - 44 - 34 - 32 },
      { title: 'Photos', width: 32, align: 'right' },
    ];
    // Room kept under the items for the certifications, the signatures and the review.
    const certified = d.defects;
    const reserve = 16 + 120 + (certified.length ? 30 + Math.min(certified.length, 6) * 22 : 0);
    table(
      doc,
      cols,
      d.items.map((i) => ({
        cells: [
          unitName(d, i.assetId),
          i.label,
          i.ok ? 'Pass' : 'DEFECT',
          i.ok ? '' : i.safety ? 'Yes' : 'No',
          i.note ?? '',
          i.imageIds.length ? String(i.imageIds.length) : '',
        ],
        bold: !i.ok,
      })),
      { rowH: 13, onePage: { reserve, more: (n) => `... and ${n} more item${n === 1 ? '' : 's'}: the CSV export lists every item` } },
    );

    if (certified.length) {
      section(doc, "Mechanic's certification of the defects (396.11(a)(3))");
      table(
        doc,
        [
          { title: 'Unit', width: 72 },
          { title: 'Defect', width: 150 },
          { title: 'Certification', width: width - 222 },
        ],
        certified.map((x) => ({ cells: [x.asset.unitNumber, x.label, certificationText(x, zone)] })),
        {
          rowH: 22,
          wrap: true,
          onePage: { reserve: 16 + 110, more: (n) => `... and ${n} more defect${n === 1 ? '' : 's'}: the CSV export lists every certification` },
        },
      );
    }

    section(doc, 'Signatures');
    const y = Math.min(doc.y + 2, bottomOf(doc) - 110);
    const w = width / 2;
    signatureBlock(
      doc,
      "Driver's signature",
      d.signature.name,
      d.signature.imageId ? (r.images.get(d.signature.imageId) ?? null) : null,
      `Signed ${timeIn(d.inspectedAt, zone)}`,
      left,
      y,
      w,
    );
    const reviewTitle = "Next driver's review of the repairs, 49 CFR 396.13";
    if (d.review) {
      signatureBlock(
        doc,
        reviewTitle,
        d.review.signature.name,
        d.review.signature.imageId ? (r.images.get(d.review.signature.imageId) ?? null) : null,
        `Reviewed ${timeIn(d.review.reviewedAt, zone)}`,
        left + w,
        y,
        w,
      );
    } else {
      doc
        .font('Helvetica')
        .fontSize(6.5)
        .fillColor('#6b7280')
        .text(reviewTitle.toUpperCase(), left + w, y, { width: w, lineBreak: false });
      const words = d.hasDefects ? 'Not reviewed yet' : 'No defects: no review needed';
      doc
        .font('Helvetica')
        .fontSize(8.5)
        .fillColor('#111827')
        .text(words, left + w, y + 14, { width: w - 8, lineBreak: false });
    }
    doc
      .font('Helvetica')
      .fontSize(6.5)
      .fillColor('#6b7280')
      .text(`Report ${d.id}. Times in ${zone}. Odometer in ${UNIT_LABELS[c.units].distance === 'mi' ? 'miles' : 'kilometres'}.`, left, bottomOf(doc) - 10, {
        width,
        lineBreak: false,
      });
  });
}

/** A report as CSV or PDF; the caller must be able to read it as GET dvirs/{id} (404 otherwise). */
export async function exportDvir(scope: ReadScope, ctx: AuthContext, dvirId: string, format: Format): Promise<ExportFile> {
  const dvir = await getDvir(scope, ctx, dvirId);
  const { db, orgId } = scope;
  const carrier = await carrierOf(db, orgId);
  const [home] = dvir.driver
    ? await db
        .select({ zone: drivers.homeTimeZone })
        .from(drivers)
        .where(and(eq(drivers.id, dvir.driver.id), eq(drivers.organizationId, orgId)))
    : [];
  const zone = home?.zone ?? carrier.timeZone;
  const orderIds = [...new Set(dvir.defects.flatMap((x) => (x.workOrderId ? [x.workOrderId] : [])))];
  const orders = orderIds.length
    ? await db
        .select({ id: workOrders.id, title: workOrders.title })
        .from(workOrders)
        .where(and(eq(workOrders.organizationId, orgId), inArray(workOrders.id, orderIds)))
    : [];
  const data: ReportData = {
    dvir,
    carrier,
    zone,
    images: format === 'pdf' ? await imagesOf(db, orgId, [dvir.signature.imageId, dvir.review?.signature.imageId]) : new Map(),
    workOrders: new Map(orders.map((o) => [o.id, o.title])),
  };
  const name = `inspection-${safeName(dvir.asset.unitNumber)}-${fileDay(dvir.inspectedAt, zone)}-${dvir.kind === 'PRE_TRIP' ? 'pre-trip' : 'post-trip'}`;
  return format === 'csv'
    ? { body: dvirCsv(data), type: 'text/csv; charset=utf-8', name: `${name}.csv` }
    : { body: await dvirPdf(data), type: 'application/pdf', name: `${name}.pdf` };
}

// ---------------------------------------------------------------- a unit's history

export interface HistoryRow {
  at: Date;
  type: 'Inspection' | 'Defect' | 'Work order' | 'Service';
  summary: string;
  status: string;
  detail: string;
}

const ITEM_LABEL = new Map<string, string>(DVIR_ITEMS.map((i) => [i.code, i.label]));

/** The unit's inspections, defects with their certification, work orders and services, newest first. */
export async function historyRows(
  db: DbOrTx,
  orgId: string,
  assetId: string,
  carrier: Carrier,
  zone: string,
): Promise<{ unitNumber: string; rows: HistoryRow[] }> {
  const [unit] = await db
    .select({ unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)));
  const [reports, defects, orders, services] = await Promise.all([
    db
      .select()
      .from(dvirs)
      .where(and(eq(dvirs.organizationId, orgId), or(eq(dvirs.assetId, assetId), sql`${dvirs.trailers} @> ${JSON.stringify([{ id: assetId }])}::jsonb`)))
      .orderBy(desc(dvirs.inspectedAt)),
    db
      .select()
      .from(vehicleDefects)
      .where(and(eq(vehicleDefects.organizationId, orgId), eq(vehicleDefects.assetId, assetId))),
    db
      .select()
      .from(workOrders)
      .where(and(eq(workOrders.organizationId, orgId), eq(workOrders.assetId, assetId))),
    db
      .select({ s: maintenanceServices, name: maintenanceSchedules.name })
      .from(maintenanceServices)
      .innerJoin(
        maintenanceSchedules,
        and(eq(maintenanceSchedules.id, maintenanceServices.scheduleId), eq(maintenanceSchedules.organizationId, maintenanceServices.organizationId)),
      )
      .where(and(eq(maintenanceServices.organizationId, orgId), eq(maintenanceServices.assetId, assetId))),
  ]);
  // A removed unit keeps its history (its reports outlive it): its number comes from the records.
  const unitNumber =
    unit?.unitNumber ??
    defects[0]?.unitNumber ??
    orders[0]?.unitNumber ??
    reports.find((r) => r.assetId === assetId)?.unitNumber ??
    reports[0]?.trailers.find((t) => t.id === assetId)?.unitNumber;
  if (unitNumber === undefined) throw notFound('Vehicle');
  const orderTitle = new Map(orders.map((o) => [o.id, o.title]));
  const odo = (m: number | null) => odometerText(m === null ? null : m / 1000, carrier.units);
  const rows: HistoryRow[] = [
    ...reports.map((r): HistoryRow => {
      const failed = r.items.filter((i) => !i.ok && i.assetId === assetId);
      return {
        at: r.inspectedAt,
        type: 'Inspection',
        summary: `${KIND_WORDS[r.kind]} by ${r.driverName}${r.assetId === assetId ? '' : ` (trailer of vehicle ${r.unitNumber})`}`,
        status: failed.length ? `${failed.length} defect${failed.length === 1 ? '' : 's'}` : 'No defects',
        detail: [
          r.odometerM === null ? '' : `Odometer ${odo(r.odometerM)}`,
          r.location ?? '',
          `signed ${r.signatureName}`,
          r.reviewedAt ? `repairs reviewed by ${r.reviewSignatureName ?? r.reviewerName ?? ''} on ${timeIn(r.reviewedAt, zone)}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      };
    }),
    ...defects.map((x): HistoryRow => ({
      at: x.createdAt,
      type: 'Defect',
      summary: `${x.label || ITEM_LABEL.get(x.item) || x.item}${x.safety ? ' (affects safe operation)' : ''}${x.note ? `: ${x.note}` : ''}`,
      status: DEFECT_WORDS[x.status],
      detail: [
        x.certifiedByName
          ? `certified by ${x.certifiedByName}${x.certifiedAt ? ` on ${timeIn(x.certifiedAt, zone)}` : ''}${x.certification ? `: ${x.certification}` : ''}`
          : '',
        x.workOrderId ? `work order: ${orderTitle.get(x.workOrderId) ?? x.workOrderId}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    })),
    ...orders.map((o): HistoryRow => ({
      at: o.createdAt,
      type: 'Work order',
      summary: o.title,
      status: ORDER_WORDS[o.status],
      detail: [
        o.assignee ? `by ${o.assignee}` : '',
        o.laborHours === null ? '' : `${o.laborHours} h labour`,
        o.costCents === null ? '' : `cost ${money(o.costCents)}`,
        o.parts ? `parts: ${o.parts}` : '',
        o.completedAt ? `done ${timeIn(o.completedAt, zone)}` : '',
        o.description ?? '',
      ]
        .filter(Boolean)
        .join('; '),
    })),
    ...services.map(({ s, name }): HistoryRow => ({
      at: s.doneAt,
      type: 'Service',
      summary: name,
      status: s.workOrderId ? 'Serviced' : 'Schedule started',
      detail: [
        s.odometerM === null ? '' : `Odometer ${odo(s.odometerM)}`,
        s.engineHours === null ? '' : `${s.engineHours.toFixed(1)} engine hours`,
        s.workOrderId ? `work order: ${orderTitle.get(s.workOrderId) ?? s.workOrderId}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    })),
  ];
  rows.sort((x, y) => y.at.getTime() - x.at.getTime());
  return { unitNumber, rows };
}

export function historyCsv(carrier: Carrier, unitNumber: string, zone: string, rows: readonly HistoryRow[]): string {
  const summary = [
    ['Carrier', carrier.name],
    ['Unit', unitNumber],
    ['Time zone', zone],
    ['Records', String(rows.length)],
  ];
  const data = rows.map((r) => [timeIn(r.at, zone), r.type, r.summary, r.status, r.detail]);
  return `${unparseCsv(['Field', 'Value'], summary)}\r\n\r\n${unparseCsv(['Date', 'Type', 'Summary', 'Status', 'Detail'], data)}\r\n`;
}

export function historyPdf(carrier: Carrier, unitNumber: string, zone: string, rows: readonly HistoryRow[]): Promise<Buffer> {
  return pdfBuffer(`Maintenance history ${unitNumber}`, 'landscape', (doc) => {
    doc.font('Helvetica-Bold').fontSize(15).fillColor('#111827').text(`Maintenance history: unit ${unitNumber}`);
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#374151')
      .text(`${carrier.name}${carrier.dotNumber ? `, USDOT ${carrier.dotNumber}` : ''}${carrier.address ? `, ${carrier.address}` : ''}`);
    doc.text(`${rows.length} records, newest first. Times in ${zone}; distances in ${carrier.units === 'IMPERIAL' ? 'miles' : 'kilometres'}.`);
    doc.moveDown(0.6);
    const width = contentWidth(doc);
    table(
      doc,
      [
        { title: 'Date', width: 120 },
        { title: 'Type', width: 62 },
        { title: 'Summary', width: 220 },
        { title: 'Status', width: 70 },
        { title: 'Detail', width: width - 472 },
      ],
      rows.map((r) => ({ cells: [timeIn(r.at, zone), r.type, r.summary, r.status, r.detail] })),
      { rowH: 22, wrap: true },
    );
  });
}

/** The user's profile zone, else the organization's: office exports read in the reader's time. */
async function readerZone(db: DbOrTx, ctx: AuthContext, fallback: string): Promise<string> {
  const [u] = await db.select({ zone: users.timeZone }).from(users).where(eq(users.id, ctx.userId));
  return u?.zone ?? fallback;
}

export async function exportHistory({ db, orgId }: ReadScope, ctx: AuthContext, assetId: string, format: Format): Promise<ExportFile> {
  const carrier = await carrierOf(db, orgId);
  const zone = await readerZone(db, ctx, carrier.timeZone);
  const { unitNumber, rows } = await historyRows(db, orgId, assetId, carrier, zone);
  const name = `maintenance-history-${safeName(unitNumber)}`;
  return format === 'csv'
    ? { body: historyCsv(carrier, unitNumber, zone, rows), type: 'text/csv; charset=utf-8', name: `${name}.csv` }
    : { body: await historyPdf(carrier, unitNumber, zone, rows), type: 'application/pdf', name: `${name}.pdf` };
}
