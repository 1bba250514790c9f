// What this module uses of pdf-lib, imported on the first join (compliance-pdf.ts). pdf-lib is a
// CommonJS package: imported through this ES module, its names are there in the server's bundle too,
// where a package imported on first use is a chunk of its own (scripts/build-api.mjs, decision 0326)
// and a CommonJS chunk's namespace holds only `default`.
export { PDFDocument } from 'pdf-lib';
