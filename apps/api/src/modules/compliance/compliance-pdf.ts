import { COMPLIANCE_KIND_LABELS, type ComplianceKind, type ComplianceStatus } from '@fleet/api-contract';
import type * as PdfLib from './pdf-lib-exports.ts';
import { drawImagePages } from '../../lib/pdf-image-pages.ts';
import { loadPdfKit } from '../../lib/pdfkit.ts';

// The papers as PDF (issue 71, decision 0300). A paper's document is its pages: photographed images
// (each on a Letter sheet of its own, fitted inside the margins, as a load's papers are printed) or
// one PDF file uploaded as it is. A driver's qualification file is an index page (every paper with
// its status and the page its document starts on) followed by each document in the index's order;
// pdfkit draws the index and the photographs, pdf-lib joins them with the uploaded PDF files.

/** One page of a document: a photograph, or a stored PDF file (its own pages). */
export type DocumentPart = { image: { bytes: Buffer; mime: string } } | { pdf: { bytes: Buffer; pages: number } };

/** A row of the qualification file's index. */
export interface IndexRow {
  kind: ComplianceKind;
  title: string | null;
  number: string | null;
  issuedOn: string | null;
  dueDate: string | null;
  status: ComplianceStatus;
  /** The document's pages; none for a paper recorded without one (or MISSING). */
  parts: DocumentPart[];
}

/** A sheet's margin, in points (half an inch). */
const MARGIN = 36;
/** The image types a PDF page holds as they are (pdfkit embeds JPEG and PNG). */
/** Index rows on a Letter page below the heading, and on the pages after the first. */
const ROWS_FIRST = 30;
const ROWS_NEXT = 36;
const ROW_HEIGHT = 18;

/** Pages a part takes in the file. */
export const partPages = (p: DocumentPart): number => ('pdf' in p ? p.pdf.pages : 1);

/** Pages the index takes for `rows` rows. */
export const indexPages = (rows: number): number => (rows <= ROWS_FIRST ? 1 : 1 + Math.ceil((rows - ROWS_FIRST) / ROWS_NEXT));

let pdfLib: Promise<typeof PdfLib> | null = null;
/** pdf-lib, imported on the first join (as pdfkit is, decision 0161). */
const loadPdfLib = () => (pdfLib ??= import('./pdf-lib-exports.ts'));

type Doc = PDFKit.PDFDocument;

/** A pdfkit document's bytes once `draw` has drawn it. */
async function drawn(title: string, draw: (pdf: Doc) => void): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ autoFirstPage: false, size: 'LETTER', margin: MARGIN, info: { Title: title, Producer: 'Fleetline' } });
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    try {
      draw(pdf);
      pdf.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** The parts as PDF files in order: runs of photographs drawn by pdfkit, uploaded PDFs as they are. */
async function segments(title: string, parts: readonly DocumentPart[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  let run: Array<{ bytes: Buffer; mime: string }> = [];
  const flush = async () => {
    if (run.length === 0) return;
    const images = run;
    run = [];
    out.push(await drawn(title, (pdf) => drawImagePages(pdf, images, 'Open the paper in Fleetline to see it.')));
  };
  for (const p of parts) {
    if ('image' in p) run.push(p.image);
    else {
      await flush();
      out.push(p.pdf.bytes);
    }
  }
  await flush();
  return out;
}

/**
 * One PDF of these files' pages in order, written without object streams (every page a plain /Page
 * object). A single file pdfkit drew (`ours`) is already that.
 */
async function join(title: string, files: readonly Buffer[], ours = false): Promise<Buffer> {
  if (files.length === 1 && ours) return files[0]!;
  const { PDFDocument } = await loadPdfLib();
  const out = await PDFDocument.create();
  out.setTitle(title);
  out.setProducer('Fleetline');
  for (const f of files) {
    const src = await PDFDocument.load(f, { ignoreEncryption: true });
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save({ useObjectStreams: false }));
}

/** A paper's document alone: its pages in order; a page that says so when it has none. */
export async function documentPdf(title: string, parts: readonly DocumentPart[]): Promise<Buffer> {
  if (parts.length === 0) {
    return drawn(title, (pdf) => {
      pdf.addPage({ size: 'LETTER', margin: MARGIN }).font('Helvetica').fontSize(12).text('This paper has no pages yet.', { align: 'center' });
    });
  }
  return join(
    title,
    await segments(title, parts),
    parts.every((p) => 'image' in p),
  );
}

/** Whether `bytes` is a PDF file pdf-lib can read, and its pages (null: not a PDF, or unreadable). */
export async function pdfPagesOf(bytes: Buffer): Promise<number | null> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return null;
  try {
    const { PDFDocument } = await loadPdfLib();
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    const n = doc.getPageCount();
    return n > 0 ? n : null;
  } catch {
    return null;
  }
}

const STATUS_WORDS: Record<ComplianceStatus, string> = { VALID: 'Valid', EXPIRING: 'Expiring', EXPIRED: 'Expired', MISSING: 'Missing' };

/** The page each row's document starts on (null: no document), after `indexPages(rows.length)` index pages. */
export function startPages(rows: readonly IndexRow[]): Array<number | null> {
  let next = indexPages(rows.length) + 1;
  return rows.map((r) => {
    if (r.parts.length === 0) return null;
    const at = next;
    next += r.parts.reduce((n, p) => n + partPages(p), 0);
    return at;
  });
}

/**
 * A driver's qualification file: the index (each paper's kind, number, issue and due dates, status
 * on `today` and the page its document starts on), then the documents in the index's order.
 */
export async function qualificationFilePdf(head: { driverName: string; organizationName: string; today: string }, rows: readonly IndexRow[]): Promise<Buffer> {
  const title = `Driver qualification file: ${head.driverName}`;
  const starts = startPages(rows);
  const index = await drawn(title, (pdf) => {
    const cols = [
      { title: 'Paper', x: MARGIN, w: 190 },
      { title: 'Number', x: MARGIN + 195, w: 95 },
      { title: 'Issued', x: MARGIN + 295, w: 62 },
      { title: 'Due', x: MARGIN + 362, w: 62 },
      { title: 'Status', x: MARGIN + 429, w: 55 },
      { title: 'Page', x: MARGIN + 489, w: 51 },
    ];
    const header = (y: number) => {
      pdf.font('Helvetica-Bold').fontSize(9).fillColor('#111827');
      for (const c of cols) pdf.text(c.title, c.x, y, { width: c.w, lineBreak: false });
      pdf
        .moveTo(MARGIN, y + 13)
        .lineTo(MARGIN + 540, y + 13)
        .strokeColor('#9ca3af')
        .stroke();
      return y + ROW_HEIGHT;
    };
    pdf.addPage({ size: 'LETTER', margin: MARGIN });
    pdf.font('Helvetica-Bold').fontSize(16).fillColor('#111827').text('Driver qualification file', MARGIN, MARGIN, { lineBreak: false });
    pdf
      .font('Helvetica')
      .fontSize(11)
      .text(`${head.driverName}`, MARGIN, MARGIN + 24, { lineBreak: false })
      .text(`${head.organizationName}, as of ${head.today} (49 CFR 391.51)`, MARGIN, MARGIN + 40, { lineBreak: false });
    let y = header(MARGIN + 70);
    let onPage = 0;
    let page = 1;
    for (const [i, r] of rows.entries()) {
      if (onPage === (page === 1 ? ROWS_FIRST : ROWS_NEXT)) {
        pdf.addPage({ size: 'LETTER', margin: MARGIN });
        y = header(MARGIN);
        onPage = 0;
        page++;
      }
      const name = r.title ? `${COMPLIANCE_KIND_LABELS[r.kind]}: ${r.title}` : COMPLIANCE_KIND_LABELS[r.kind];
      const cells = [name, r.number ?? '', r.issuedOn ?? '', r.dueDate ?? '', STATUS_WORDS[r.status], starts[i] === null ? '-' : String(starts[i])];
      pdf
        .font('Helvetica')
        .fontSize(9)
        .fillColor(r.status === 'EXPIRED' || r.status === 'MISSING' ? '#b91c1c' : '#111827');
      for (const [c, text] of cells.entries()) pdf.text(text, cols[c]!.x, y, { width: cols[c]!.w, lineBreak: false, ellipsis: true });
      y += ROW_HEIGHT;
      onPage++;
    }
  });
  const files = [index];
  for (const r of rows) if (r.parts.length > 0) files.push(...(await segments(title, r.parts)));
  return join(title, files);
}
