import type { DbOrTx } from '../../db/client.ts';
import { drawImagePages, type PageImage } from '../../lib/pdf-image-pages.ts';
import { documentPages } from '../loads/index.ts';

// The papers an invoice carries after its own pages (issue 70): for each load, its proofs of delivery,
// then, when the invoice reimburses a lumper for it, the lumper's receipt. A broker pays on a legible
// proof of delivery, so it travels with the invoice. The pages are the loads module's documents
// (decision 0287), each image on its own Letter page.

export interface Paper {
  loadId: string;
  type: 'POD' | 'LUMPER';
  pages: PageImage[];
}

/** Each load's proofs of delivery, then its lumper receipt where `lumper` says the invoice reimburses one. */
export async function invoicePapers(db: DbOrTx, orgId: string, loads: ReadonlyArray<{ id: string; lumper: boolean }>): Promise<Paper[]> {
  const out: Paper[] = [];
  for (const load of loads) {
    const docs = await documentPages(db, orgId, load.id, load.lumper ? ['POD', 'LUMPER'] : ['POD']);
    // The proofs of delivery first, each in the order taken, then the receipts.
    for (const type of ['POD', 'LUMPER'] as const)
      for (const d of docs) if (d.type === type && d.pages.length) out.push({ loadId: load.id, type, pages: d.pages });
  }
  return out;
}

/** Draws the papers' pages after the invoice, each image on its own page. */
export function drawPapers(doc: PDFKit.PDFDocument, papers: readonly Paper[]): void {
  for (const p of papers) drawImagePages(doc, p.pages);
}
