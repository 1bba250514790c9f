// The invoices module's public file (issue 70, decision 0291): invoices of delivered loads, their PDF,
// sending, payments, aging and the accounting export.
export { default as invoicesRoutes } from './invoices.routes.ts';
// The demo seeds its month of invoices through the service, as the office would make them.
export { createInvoice } from './invoices.service.ts';
export { recordPayment } from './invoice-payments.service.ts';
