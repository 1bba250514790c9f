// The loads module's public file (issue 33, decision 0166): other modules import from here only.
export { default as loadsRoutes } from './loads.routes.ts';
export { LoadStopsFromVisits } from './load-visits.ts';
export { loadedMetres } from './load-distance.ts';
export { loadInReach } from './load-access.ts';
export { detentionCents, stopDetention, type DetentionStop, type StopDetention } from './load-detention.ts';
export { documentPages, type DocumentPages } from './document-pdf.ts';
export { loadDocumentPdf } from './load-documents.service.ts';
