import { INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS, type Invoice } from '@fleet/api-contract';
import { loadPdfKit } from '../../lib/pdfkit.ts';
import { table, type Column } from '../maintenance/index.ts';
import { moneyText } from '../../lib/money-text.ts';
import { drawPapers, type Paper } from './invoice-papers.ts';
import type { Carrier } from './invoices.repository.ts';

// The invoice as a PDF (issue 70): Letter, the standard PDF fonts (nothing to embed), the carrier and
// the customer, the dates and terms, the loads billed, the lines, the payments and the balance due;
// then the papers (proofs of delivery, lumper receipts), each page on its own sheet. Drawn with the
// maintenance exports' table (decision 0163), as the reports' PDFs are.

type Doc = PDFKit.PDFDocument;
const MARGIN = 48;
const INK = '#111827';
const MUTED = '#6b7280';
const RULE = '#d1d5db';

const dayText = (day: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));
const instantDay = (iso: string | null, zone: string) =>
  iso ? new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: zone }).format(new Date(iso)) : '—';

function carrierLines(c: Carrier): string[] {
  const cityLine = [c.city, [c.state, c.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const ids = [c.dotNumber ? `USDOT ${c.dotNumber}` : null, c.mcNumber ? `MC ${c.mcNumber}` : null].filter(Boolean).join(' · ');
  return [c.addressLine1, c.addressLine2, cityLine, c.phone, ids].filter((l): l is string => !!l);
}

/** Label: value, right-aligned in the header's right column. */
function headerPair(doc: Doc, label: string, value: string, x: number, y: number, width: number): void {
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(MUTED)
    .text(label, x, y, { width: width / 2 - 4, lineBreak: false });
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(INK)
    .text(value, x + width / 2, y - 1, { width: width / 2, align: 'right', lineBreak: false });
}

function drawHeader(doc: Doc, inv: Invoice, carrier: Carrier): void {
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const top = MARGIN;
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor(INK)
    .text(carrier.name, left, top, { width: width * 0.55 });
  doc.font('Helvetica').fontSize(9).fillColor('#374151');
  for (const line of carrierLines(carrier)) doc.text(line, left, doc.y + 1, { width: width * 0.55 });
  const carrierBottom = doc.y;

  const rx = left + width * 0.6;
  const rw = width * 0.4;
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .fillColor(INK)
    .text(inv.status === 'VOID' ? 'INVOICE (VOID)' : 'INVOICE', rx, top - 2, { width: rw, align: 'right' });
  let y = top + 32;
  const pairs: Array<[string, string]> = [
    ['Invoice number', inv.number],
    ['Invoice date', dayText(inv.invoiceDate)],
    ['Due date', dayText(inv.dueDate)],
    ['Terms', inv.termsDays === 0 ? 'Due on receipt' : `Net ${inv.termsDays}`],
  ];
  if (inv.status !== 'DRAFT' && inv.status !== 'SENT') pairs.push(['Status', INVOICE_STATUS_LABELS[inv.status]]);
  for (const [label, value] of pairs) {
    headerPair(doc, label, value, rx, y, rw);
    y += 14;
  }

  y = Math.max(carrierBottom, y) + 16;
  doc.font('Helvetica-Bold').fontSize(8).fillColor(MUTED).text('BILL TO', left, y);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(inv.customerName, left, y + 11, { width: width * 0.55 });
  doc.font('Helvetica').fontSize(9).fillColor('#374151');
  for (const line of (inv.billingAddress ?? '').split('\n').filter((l) => l.trim())) doc.text(line.trim(), left, doc.y + 1, { width: width * 0.55 });
  doc.x = left;
  doc.y += 14;
}

function rule(doc: Doc): void {
  const width = doc.page.width - 2 * MARGIN;
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .strokeColor(RULE)
    .lineWidth(0.6)
    .stroke();
  doc.y += 8;
}

function sectionTitle(doc: Doc, title: string): void {
  if (doc.y > doc.page.height - MARGIN - 60) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(title, MARGIN, doc.y);
  doc.y += 4;
}

/** A stretched copy of `columns` filling the page's width (the first column takes the rest). */
function fill(doc: Doc, columns: Column[]): Column[] {
  const width = doc.page.width - 2 * MARGIN;
  const rest = width - columns.slice(1).reduce((s, c) => s + c.width, 0);
  return columns.map((c, i) => (i === 0 ? { ...c, width: rest } : c));
}

function drawLoads(doc: Doc, inv: Invoice, zone: string): void {
  if (inv.loads.length === 0) return;
  sectionTitle(doc, inv.loads.length === 1 ? 'Load' : 'Loads');
  const cols = fill(doc, [
    { title: 'Lane', width: 0 },
    { title: 'Load', width: 60 },
    { title: 'Delivered', width: 78 },
    { title: 'BOL', width: 80 },
    { title: 'PO', width: 80 },
  ]);
  const lane = (l: Invoice['loads'][number]) => [l.origin, l.destination].filter(Boolean).join(' to ') || '—';
  table(
    doc,
    // The lane first: it takes what the other columns leave.
    cols,
    inv.loads.map((l) => ({ cells: [lane(l), l.number, instantDay(l.deliveredAt, zone), l.bolNumber ?? '—', l.poNumber ?? '—'] })),
    { grow: true },
  );
  doc.y += 10;
}

function drawLines(doc: Doc, inv: Invoice): void {
  sectionTitle(doc, 'Charges');
  const cols = fill(doc, [
    { title: 'Description', width: 0 },
    { title: 'Load', width: 60 },
    { title: `Amount (${inv.currency})`, width: 90, align: 'right' },
  ]);
  table(
    doc,
    cols,
    inv.lines.map((l) => ({ cells: [l.description, l.loadNumber ?? '', moneyText(l.amountCents, inv.currency)] })),
    { grow: true },
  );
  doc.y += 6;
}

/** Total, payments and balance due, right-aligned under the charges. */
function drawTotals(doc: Doc, inv: Invoice): void {
  const width = doc.page.width - 2 * MARGIN;
  const x = MARGIN + width * 0.3;
  const w = width * 0.7;
  const rows: Array<{ label: string; value: string; bold?: boolean }> = [{ label: 'Total', value: moneyText(inv.totalCents, inv.currency), bold: true }];
  for (const p of inv.payments) {
    const how = [p.method ? PAYMENT_METHOD_LABELS[p.method] : null, p.reference].filter(Boolean).join(' ');
    rows.push({ label: `Payment received ${dayText(p.receivedOn)}${how ? ` · ${how}` : ''}`, value: `-${moneyText(p.amountCents, inv.currency)}` });
  }
  rows.push({ label: inv.status === 'VOID' ? 'Balance due (void)' : 'Balance due', value: moneyText(inv.balanceCents, inv.currency), bold: true });
  if (doc.y + rows.length * 15 + 10 > doc.page.height - MARGIN) doc.addPage();
  for (const [i, r] of rows.entries()) {
    const last = i === rows.length - 1;
    if (last) {
      doc
        .moveTo(x, doc.y)
        .lineTo(x + w, doc.y)
        .strokeColor(INK)
        .lineWidth(0.8)
        .stroke();
      doc.y += 4;
    }
    const y = doc.y;
    doc
      .font(r.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(last ? 11 : 9)
      .fillColor(INK);
    doc.text(r.label, x, y, { width: w - 100, lineBreak: false, ellipsis: true });
    doc.text(r.value, x + w - 100, y, { width: 100, align: 'right', lineBreak: false });
    doc.y = y + (last ? 16 : 14);
  }
  doc.x = MARGIN;
}

function drawFooter(doc: Doc, inv: Invoice, carrier: Carrier, papers: readonly Paper[]): void {
  const width = doc.page.width - 2 * MARGIN;
  doc.y += 12;
  if (inv.notes) {
    sectionTitle(doc, 'Notes');
    doc.font('Helvetica').fontSize(9).fillColor('#374151').text(inv.notes, MARGIN, doc.y, { width });
    doc.y += 8;
  }
  rule(doc);
  const pay =
    inv.status === 'VOID'
      ? `This invoice is void${inv.voidReason ? `: ${inv.voidReason}` : ''}. Nothing is owed on it.`
      : inv.balanceCents <= 0
        ? 'Paid in full. Thank you.'
        : inv.overdue
          ? `Past due since ${dayText(inv.dueDate)}: please pay ${moneyText(inv.balanceCents, inv.currency)} now, quoting invoice ${inv.number}.`
          : `Please pay ${moneyText(inv.balanceCents, inv.currency)} by ${dayText(inv.dueDate)}, quoting invoice ${inv.number}.`;
  const follow = papers.some((p) => p.type === 'POD')
    ? ' Proofs of delivery follow on the next pages.'
    : papers.length
      ? ' Receipts follow on the next pages.'
      : '';
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${pay}${follow}${carrier.phone ? ` Questions: ${carrier.phone}.` : ''}`, MARGIN, doc.y, { width });
}

/** The invoice's PDF bytes: its own pages, then the papers. */
export async function invoicePdf(inv: Invoice, carrier: Carrier, papers: readonly Paper[]): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: `Invoice ${inv.number}`, Author: carrier.name, Producer: 'Fleetline' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    drawHeader(doc, inv, carrier);
    rule(doc);
    drawLoads(doc, inv, carrier.timeZone);
    drawLines(doc, inv);
    drawTotals(doc, inv);
    drawFooter(doc, inv, carrier, papers);
    drawPapers(doc, papers);
    doc.end();
  });
}
