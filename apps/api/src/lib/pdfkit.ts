import type PDFDocument from 'pdfkit';

// pdfkit (with fontkit, a Brotli dictionary and Unicode tables) is loaded on the first PDF export, not
// at start: the idle server kept ~4 MB of its modules' sources and tables for exports it may never make
// (decision 0161). The first export of a process waits for it once (~0.1-0.3 s).

let loading: Promise<typeof PDFDocument> | null = null;

/** pdfkit's document class, imported on first use. */
export function loadPdfKit(): Promise<typeof PDFDocument> {
  loading ??= import('pdfkit').then((m) => m.default);
  return loading;
}
