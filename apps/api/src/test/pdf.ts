import { inflateSync } from 'node:zlib';

/** The text a PDF draws (pdfkit: deflated content streams, hex strings in TJ arrays). */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (let at = raw.indexOf('stream\n'); at >= 0; at = raw.indexOf('stream\n', at + 1)) {
    const end = raw.indexOf('endstream', at);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(at + 7, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      out.push([...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
    }
  }
  return out.join('\n');
}

/** Pages in a PDF. */
export const pdfPageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

/** One text drawing of a PDF page: where it starts (PDF points, from the page's top), its font size and text. */
export interface PdfRun {
  page: number;
  x: number;
  /** From the top of the page (pdfkit draws with a flipped y axis). */
  y: number;
  size: number;
  text: string;
}

/**
 * The text runs of a pdfkit PDF page by page, with their positions: enough to check a layout
 * (headers on one line, nothing past the right margin) without a renderer.
 */
export function pdfTextRuns(pdf: Buffer): PdfRun[] {
  const raw = pdf.toString('latin1');
  const out: PdfRun[] = [];
  let page = 0;
  for (let at = raw.indexOf('stream\n'); at >= 0; at = raw.indexOf('stream\n', at + 1)) {
    const end = raw.indexOf('endstream', at);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(at + 7, end)).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes(' Tm')) continue;
    page++;
    // pdfkit: "1 0 0 -1 0 <height> cm" flips the page; each text is "BT <a b c d x y> Tm /F Tf [..] TJ ET".
    const height = Number(/1 0 0 -1 0 ([\d.]+) cm/.exec(content)?.[1] ?? 792);
    for (const bt of content.matchAll(/BT\s+([\d.\s-]+?) Tm\s+\/\S+ ([\d.]+) Tf\s+([\s\S]*?)ET/g)) {
      const m = bt[1]!.trim().split(/\s+/).map(Number);
      const text = [...bt[3]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join('');
      if (!text) continue;
      out.push({ page, x: m[4]!, y: height - m[5]!, size: Number(bt[2]), text });
    }
  }
  return out;
}

/** The sizes of the images a PDF embeds, in the order written (pdfkit writes each image as it is first drawn). */
export const pdfImageSizes = (pdf: Buffer): Array<{ width: number; height: number }> =>
  [...pdf.toString('latin1').matchAll(/\/Subtype \/Image\b[^>]*?\/Width (\d+)[^>]*?\/Height (\d+)/g)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));
