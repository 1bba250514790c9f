import type { DbOrTx } from '../../db/client.ts';

// The papers an invoice carries after its own pages (issue 70): for each load, its proofs of delivery,
// then, when the invoice reimburses a lumper for it, the lumper's receipt. A broker pays on a legible
// proof of delivery, so it travels with the invoice. The pages are the loads module's documents
// (`documentPages`), each image drawn on its own Letter page (`drawImagePages`).

export interface PaperPage {
  bytes: Buffer;
  mime: string;
}

export interface Paper {
  loadId: string;
  type: 'POD' | 'LUMPER';
  pages: PaperPage[];
}

/** Each load's proofs of delivery, then its lumper receipt where `lumper` says the invoice reimburses one. */
export async function invoicePapers(db: DbOrTx, orgId: string, loads: ReadonlyArray<{ id: string; lumper: boolean }>): Promise<Paper[]> {
  // The loads module's multi-page documents come with issue 70's documents part; until they are on
  // main the invoice is printed without papers.
  void db;
  void orgId;
  void loads;
  return [];
}

/** Draws the papers' pages after the invoice, each image on its own page. */
export function drawPapers(doc: PDFKit.PDFDocument, papers: readonly Paper[]): void {
  void doc;
  void papers;
}

export const paperPageCount = (papers: readonly Paper[]) => papers.reduce((n, p) => n + p.pages.length, 0);
