import {
  KM_PER_MILE,
  SETTLEMENT_GROUPS,
  SETTLEMENT_STATUS_LABELS,
  type Settlement,
  type SettlementGroup,
  type SettlementLine,
  type UnitSystem,
} from '@fleet/api-contract';
import { contentWidth, fields, pdfBuffer, section, table, type Column } from '../maintenance/index.ts';
import { money } from './settlement-pay.ts';

// The driver's pay statement (issue 70): who and which days, the loads it pays, then its lines by
// group (loads, detention, hours from the log, reimbursements, deductions), each with where its
// figure came from, and the totals down to the net pay. Drawn with the maintenance exports' helpers.

export interface StatementOrg {
  name: string;
  addressLine1: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  phone: string | null;
  units: UnitSystem;
}

const GROUP_TITLES: Record<SettlementGroup, string> = {
  LOADS: 'Loads',
  DETENTION: 'Detention',
  HOURLY: "Hours from the driver's log",
  REIMBURSEMENTS: 'Reimbursements',
  DEDUCTIONS: 'Deductions',
};

const cents = (amount: number) => Math.round(amount * 100);

/** A new page unless `height` points are left above the bottom margin (a section title never ends a page). */
function room(doc: PDFKit.PDFDocument, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}
const $ = (amount: number) => money(cents(amount));

/** A distance in the organization's unit (the API's km). */
function distance(km: number | null, units: UnitSystem): string {
  if (km === null) return '—';
  return units === 'IMPERIAL' ? `${(km / KM_PER_MILE).toFixed(1)} mi` : `${km.toFixed(1)} km`;
}

function quantity(l: SettlementLine, units: UnitSystem): string {
  if (l.quantity === null) return '';
  switch (l.unit) {
    case 'MILE':
      // Paid per mile: a metric organization reads its km, and the miles paid.
      return units === 'IMPERIAL' ? `${l.quantity.toFixed(1)} mi` : `${distance(l.distanceKm, units)} (${l.quantity.toFixed(1)} mi)`;
    case 'HOUR':
      return `${l.quantity.toFixed(2)} h`;
    case 'PERCENT':
      return `${l.quantity}%`;
    default:
      return String(l.quantity);
  }
}

function rate(l: SettlementLine): string {
  if (l.rate === null) return '';
  switch (l.unit) {
    case 'MILE':
      return `$${l.rate.toFixed(3)}/mi`;
    case 'HOUR':
      return `${$(l.rate)}/h`;
    case 'PERCENT':
      return l.base === null ? '' : `of ${$(l.base)}`;
    default:
      return $(l.rate);
  }
}

const dayText = (d: string) => {
  const [y, m, day] = d.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, day!)).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
};
const stamp = (at: string | null, zone: string) =>
  at
    ? new Date(at).toLocaleString('en-US', {
        timeZone: zone,
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
    : '';

export async function statementPdf(st: Settlement, org: StatementOrg): Promise<Buffer> {
  const zone = st.timeZone;
  return pdfBuffer(`Pay statement ${st.number}`, 'portrait', (doc) => {
    const left = doc.page.margins.left;
    const width = contentWidth(doc);
    doc.font('Helvetica-Bold').fontSize(14).fillColor('#111827').text(org.name, left, doc.y, { width });
    const address = [org.addressLine1, [org.city, org.state, org.postalCode].filter(Boolean).join(' '), org.phone].filter(Boolean).join(' · ');
    if (address) doc.font('Helvetica').fontSize(8.5).fillColor('#4b5563').text(address, { width });
    doc.moveDown(0.4);
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#111827').text(`Driver pay statement ${st.number}`, { width });
    if (st.status === 'DRAFT' || st.status === 'VOID')
      doc
        .font('Helvetica-Bold')
        .fontSize(9)
        .fillColor('#b45309')
        .text(st.status === 'DRAFT' ? 'DRAFT: not approved, not for payment' : `VOID${st.voidReason ? `: ${st.voidReason}` : ''}`, { width });
    doc.moveDown(0.5);
    fields(
      doc,
      [
        ['Driver', st.driver.name],
        ['Days', `${dayText(st.from)} to ${dayText(st.to)}`],
        ['Days counted in', zone],
        ['Status', SETTLEMENT_STATUS_LABELS[st.status]],
        ['Approved', st.approvedAt ? `${stamp(st.approvedAt, zone)}${st.approvedBy ? ` by ${st.approvedBy}` : ''}` : ''],
        ['Paid', st.paidAt ? `${stamp(st.paidAt, zone)}${st.paymentReference ? `, ref. ${st.paymentReference}` : ''}` : ''],
      ],
      3,
    );

    room(doc, 70);
    section(doc, `Loads delivered (${st.loads.length})`);
    if (st.loads.length === 0) doc.font('Helvetica-Oblique').fontSize(8.5).fillColor('#374151').text('No delivered load in these days.', left, doc.y);
    else {
      const cols: Column[] = [
        { title: 'Load', width: 52 },
        { title: 'Customer', width: 140 },
        { title: 'Delivered', width: 86 },
        { title: 'Seat', width: 82 },
        { title: 'Loaded', width: 56, align: 'right' },
        { title: 'Empty', width: 52, align: 'right' },
        { title: 'Stops', width: 30, align: 'right' },
        { title: 'Pay', width: width - 498, align: 'right' },
      ];
      table(
        doc,
        cols,
        st.loads.map((l) => ({
          cells: [
            l.number,
            l.customer,
            stamp(l.deliveredAt, zone),
            l.seat === 'LEAD' ? (l.teammate ? `Lead, ${l.sharePercent}%` : 'Solo') : `Second, ${l.sharePercent}%`,
            distance(l.loadedKm, org.units),
            distance(l.emptyKm, org.units),
            String(l.stopCount),
            $(l.amount),
          ],
        })),
        { grow: true },
      );
    }

    const cols: Column[] = [
      { title: 'Load or day', width: 62 },
      { title: 'Pay', width: 130 },
      { title: 'Where it came from', width: 198 },
      { title: 'Quantity', width: 64, align: 'right' },
      { title: 'Rate', width: 50, align: 'right' },
      { title: 'Amount', width: width - 504, align: 'right' },
    ];
    for (const group of SETTLEMENT_GROUPS) {
      const lines = st.lines.filter((l) => l.group === group);
      if (lines.length === 0) continue;
      const sum = lines.reduce((s, l) => s + cents(l.amount), 0);
      room(doc, 70);
      section(doc, `${GROUP_TITLES[group]}: ${money(sum)}`);
      table(
        doc,
        cols,
        lines.map((l) => ({
          cells: [l.loadNumber ?? (l.logDate ? dayText(l.logDate) : ''), l.description, l.source, quantity(l, org.units), rate(l), $(l.amount)],
        })),
        { grow: true },
      );
    }

    room(doc, 140);
    section(doc, 'Net pay');
    const t = st.totals;
    const totals: Array<[string, number, boolean?]> = [
      ['Loads', t.loads],
      ['Detention', t.detention],
      ['Hours', t.hourly],
      ['Gross pay', t.gross, true],
      ['Reimbursements', t.reimbursements],
      ['Deductions', -t.deductions],
      ['Net pay', t.net, true],
    ];
    const labelW = 140;
    const amountW = 90;
    const x = left + width - labelW - amountW;
    for (const [label, amount, bold] of totals) {
      const y = doc.y;
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(bold ? 10 : 9)
        .fillColor('#111827');
      doc.text(label, x, y, { width: labelW, lineBreak: false });
      doc.text($(amount), x + labelW, y, { width: amountW, align: 'right', lineBreak: false });
      doc.y = y + (bold ? 15 : 13);
    }
    doc.x = left;
    doc.moveDown(1);
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor('#6b7280')
      .text(
        `Miles are paid on the road distance rounded to a tenth of a mile, hours on the log's time rounded to a hundredth; amounts in ${st.currency}. Statement made ${stamp(st.createdAt, zone)}${st.createdBy ? ` by ${st.createdBy}` : ''}.`,
        left,
        doc.y,
        { width },
      );
  });
}
