import { inflateSync } from 'node:zlib';
import { loadPdfKit } from '../../lib/pdfkit.ts';

// Drawing helpers of the maintenance exports (decision 0160), as the IFTA exports draw theirs:
// pdfkit with the standard PDF fonts, nothing to embed.

export type Doc = PDFKit.PDFDocument;

/** The PDF of `draw` as bytes. */
export async function pdfBuffer(title: string, layout: 'portrait' | 'landscape', draw: (doc: Doc) => void): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', layout, margin: 32, info: { Title: title, Producer: 'Fleetline' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

export const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
export const bottomOf = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** A row of cells at `y`, each cut to its column and the row's height (so a row keeps its height). */
export function cells(doc: Doc, columns: readonly Column[], row: readonly string[], y: number, height: number, wrap = false): void {
  let x = doc.page.margins.left;
  row.forEach((cell, k) => {
    const c = columns[k];
    if (!c) return;
    // Wrapping cells stay within the row's height too: pdfkit cuts what does not fit with an ellipsis.
    doc.text(cell, x + 2, y, { width: c.width - 4, align: c.align ?? 'left', lineBreak: wrap, ellipsis: true, height: height - 2 });
    x += c.width;
  });
}

/**
 * A table: a header row, zebra rows. `onePage`: rows that do not fit stop the table with a line
 * saying how many were left out (the inspection form stays one page); otherwise a page break repeats
 * the header.
 */
export function table(
  doc: Doc,
  columns: readonly Column[],
  rows: ReadonlyArray<{ cells: string[]; bold?: boolean }>,
  opts: { rowH?: number; wrap?: boolean; grow?: boolean; onePage?: { reserve: number; more: (n: number) => string } } = {},
): void {
  const left = doc.page.margins.left;
  const rowH = opts.rowH ?? 13;
  const width = columns.reduce((s, c) => s + c.width, 0);
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(7.5).fillColor('#1f2937');
    cells(
      doc,
      columns,
      columns.map((c) => c.title),
      doc.y,
      rowH,
    );
    const y = doc.y + 11;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor('#9ca3af')
      .lineWidth(0.5)
      .stroke();
    doc.y = y + 3;
  };
  header();
  for (const [i, row] of rows.entries()) {
    const limit = bottomOf(doc) - (opts.onePage?.reserve ?? 16);
    doc.font(row.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    // `grow`: a row as tall as its longest cell wrapped in its column (issue 46: long cells ran off the page).
    const h = opts.grow ? Math.max(rowH, ...row.cells.map((c, k) => (columns[k] ? doc.heightOfString(c, { width: columns[k].width - 4 }) + 4 : 0))) : rowH;
    if (doc.y + h > limit) {
      if (opts.onePage) {
        doc.font('Helvetica-Oblique').fontSize(7.5).fillColor('#374151');
        doc.text(opts.onePage.more(rows.length - i), left + 2, doc.y, { width, lineBreak: false, height: rowH });
        doc.y += rowH;
        break;
      }
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (i % 2 === 1) doc.rect(left, y - 2, width, h).fill('#f3f4f6');
    doc
      .font(row.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8)
      .fillColor('#111827');
    cells(doc, columns, row.cells, y, h, opts.wrap || opts.grow);
    doc.y = y + h;
  }
  doc.x = left;
}

/** A bold section title across the page with a rule under it. */
export function section(doc: Doc, title: string): void {
  const left = doc.page.margins.left;
  const y = doc.y + 8;
  doc.font('Helvetica-Bold').fontSize(9.5).fillColor('#111827').text(title, left, y, { lineBreak: false });
  doc
    .moveTo(left, y + 13)
    .lineTo(left + contentWidth(doc), y + 13)
    .strokeColor('#111827')
    .lineWidth(0.8)
    .stroke();
  doc.x = left;
  doc.y = y + 18;
}

/** Label: value pairs in `perRow` columns. */
export function fields(doc: Doc, pairs: ReadonlyArray<readonly [string, string]>, perRow: number): void {
  const left = doc.page.margins.left;
  const w = contentWidth(doc) / perRow;
  for (let i = 0; i < pairs.length; i += perRow) {
    const y = doc.y;
    let h = 0;
    pairs.slice(i, i + perRow).forEach(([label, value], k) => {
      doc
        .font('Helvetica')
        .fontSize(6.5)
        .fillColor('#6b7280')
        .text(label.toUpperCase(), left + k * w, y, { width: w - 6, lineBreak: false });
      doc
        .font('Helvetica')
        .fontSize(9)
        .fillColor('#111827')
        .text(value || '—', left + k * w, y + 8, { width: w - 6, height: 22, ellipsis: true });
      h = Math.max(h, doc.y - y);
    });
    doc.y = y + Math.max(h, 19) + 3;
  }
  doc.x = left;
}

/**
 * True when a PNG's pixel data inflates. pdfkit decodes a PNG with transparency asynchronously and
 * throws out of a zlib callback on a corrupt one, which no try/catch here would catch.
 */
export function pngInflates(data: Buffer): boolean {
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(data.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  try {
    inflateSync(Buffer.concat(idat));
    return idat.length > 0;
  } catch {
    return false;
  }
}

/** A PNG or JPEG image (the formats pdfkit draws) fitted in a box; false when it cannot be drawn. */
export function picture(doc: Doc, image: { contentType: string; data: Buffer } | null, x: number, y: number, fit: [number, number]): boolean {
  if (!image || !['image/png', 'image/jpeg'].includes(image.contentType)) return false;
  if (image.contentType === 'image/png' && !pngInflates(image.data)) return false;
  try {
    doc.image(image.data, x, y, { fit, valign: 'center' });
    return true;
  } catch {
    // A corrupt upload prints as the typed name alone.
    return false;
  }
}
