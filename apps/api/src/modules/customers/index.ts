// The customers module's public file: other modules import from here only.
export { customerForLoad } from './customers.service.ts';
export { findCustomer, type CustomerRow } from './customers.repository.ts';
export { default as customersRoutes } from './customers.routes.ts';
