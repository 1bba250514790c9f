import type { LoadDocumentType } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { loadPdfKit } from '../../lib/pdfkit.ts';
import { drawImagePages, type PageImage } from '../../lib/pdf-image-pages.ts';
import { pageRows } from './load-documents.repository.ts';

// A load's papers as PDF pages (issue 70, decision 0287): each photographed page on its own Letter
// sheet, scaled to fit inside the margins and centred, in the order taken. The document's own PDF
// is made here; the invoice appends the proof of delivery and the lumper receipt with the same two
// functions (exported from the module's index.ts).

export interface DocumentPages {
  documentId: string;
  type: LoadDocumentType;
  stopId: string | null;
  pages: PageImage[];
}

/** The image types a PDF page holds as they are (pdfkit embeds JPEG and PNG). */

/** A sheet's margin, in points (half an inch): room for a printer's edge around the photo. */
const MARGIN = 36;

/**
 * The documents of a load with their pages' images, oldest document first and each one's pages in
 * the order taken; only those of `types` when given.
 */
export async function documentPages(db: DbOrTx, orgId: string, loadId: string, types?: LoadDocumentType[]): Promise<DocumentPages[]> {
  const rows = await pageRows(db, orgId, loadId, types ? { types } : {});
  const out: DocumentPages[] = [];
  for (const r of rows) {
    let doc = out.at(-1);
    if (doc?.documentId !== r.documentId) {
      doc = { documentId: r.documentId, type: r.type, stopId: r.stopId, pages: [] };
      out.push(doc);
    }
    doc.pages.push({ bytes: r.bytes, mime: r.mime });
  }
  return out;
}

/** A PDF of the pages alone (a document's PDF): one Letter sheet per page. */
export async function pagesPdf(title: string, pages: PageImage[]): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ autoFirstPage: false, size: 'LETTER', margin: MARGIN, info: { Title: title, Producer: 'Fleetline' } });
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    try {
      drawImagePages(pdf, pages);
      // Every page's image removed since (a PDF needs a page): one that says so.
      if (pages.length === 0)
        pdf.addPage({ size: 'LETTER', margin: MARGIN }).font('Helvetica').fontSize(12).text('This document has no pages left.', { align: 'center' });
      pdf.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
