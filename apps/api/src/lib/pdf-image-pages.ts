// Photographed pages as PDF pages (issues 70 and 71): a load's papers, the invoice's appended proof of
// delivery, and a driver's or unit's papers in the qualification file are drawn alike.

/** A photographed page: its bytes and their type. */
export interface PageImage {
  bytes: Buffer;
  mime: string;
}

/** The image types a PDF page can hold. */
export const PDF_IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png'];

const MARGIN = 36;

/**
 * Draws each image on a Letter page of its own added to `pdf`, scaled to fit inside the margins and
 * centred (a photo's EXIF orientation is kept). An image a PDF cannot hold (a GIF or WebP photo
 * attached before issue 70, or bytes that do not decode) gets a page that says so, so the pages
 * still count and the rest are drawn.
 */
export function drawImagePages(pdf: PDFKit.PDFDocument, pages: readonly PageImage[], seeIt = 'Open the load in Fleetline to see it.'): void {
  for (const [i, page] of pages.entries()) {
    pdf.addPage({ size: 'LETTER', margin: MARGIN });
    const width = pdf.page.width - 2 * MARGIN;
    const height = pdf.page.height - 2 * MARGIN;
    if (PDF_IMAGE_TYPES.includes(page.mime)) {
      try {
        pdf.image(page.bytes, MARGIN, MARGIN, { fit: [width, height], align: 'center', valign: 'center' });
        continue;
      } catch {
        // Unreadable bytes: the note below instead.
      }
    }
    pdf
      .font('Helvetica')
      .fontSize(12)
      .fillColor('#374151')
      .text(`Page ${i + 1}: this photo (${page.mime}) cannot be shown in a PDF. ${seeIt}`, MARGIN, MARGIN + height / 2, {
        width,
        align: 'center',
      });
  }
}
